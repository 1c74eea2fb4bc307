package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// Calls written just before stdin closes (a script piped in, a client that
// sends its last calls and closes) are run and answered: a call the
// transport had read but not yet handed to a tool when stdin closed was
// answered "the server is shutting down (stdin closed): this call was not
// run".
func TestCallsWrittenAsStdinClosesRun(t *testing.T) {
	t.Parallel()
	cmd, stdin, stdout := startPiped(t, "--headless", "--browser-arg="+newMarker("stdin-piped"))
	lines := bufio.NewScanner(stdout)
	lines.Buffer(nil, 1<<20)
	answers := map[string]string{}
	read := func(id string) string {
		t.Helper()
		for answers[id] == "" && lines.Scan() {
			var m struct{ ID json.RawMessage }
			_ = json.Unmarshal(lines.Bytes(), &m)
			answers[string(m.ID)] = lines.Text()
		}
		return answers[id]
	}
	write := func(msgs ...string) {
		t.Helper()
		if _, err := io.WriteString(stdin, strings.Join(msgs, "\n")); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"piped","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"navigate","arguments":{"url":%q}}}`, site.URL("/home.html")), "")
	if got := read("2"); !strings.Contains(got, "home.html") || strings.Contains(got, `"isError":true`) {
		t.Fatalf("navigate: %s", got)
	}
	// The last calls and the end of the input in one write.
	write(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"evaluate","arguments":{"expression":"6 * 7"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"getUrl"}}`,
		// A last line the input ends without a newline is not read.
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"getTitle"}}`)
	stdin.Close()
	for id, want := range map[string]string{"3": "42", "4": "home.html"} {
		if got := read(id); !strings.Contains(got, want) || strings.Contains(got, `"isError":true`) {
			t.Errorf("call %s: want it run (%q), got %s", id, want, got)
		}
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit: %v", err)
		}
	case <-time.After(testbound.Scale(10 * time.Second)):
		t.Fatalf("still running %v after stdin closed", testbound.Scale(10*time.Second))
	}
	if got := read("5"); got != "" {
		t.Errorf("the unended last line was answered: %s", got)
	}
	waitNoneOwnedBy(t, cmd.Process.Pid)
}

// startPiped starts `cdpmcp serve args…` with pipes for its stdin and
// stdout; its stderr is logged when the test fails, and it is killed at the
// test's end.
func startPiped(t *testing.T, args ...string) (*exec.Cmd, io.WriteCloser, io.Reader) {
	t.Helper()
	cmd := exec.Command(binPath, append([]string{"serve"}, args...)...)
	cmd.Env = procEnv(shortTemp(t))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr.String())
		}
	})
	return cmd, stdin, stdout
}
