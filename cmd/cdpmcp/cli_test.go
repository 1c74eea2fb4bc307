package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/browserproc"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// cliRun is the outcome of one cdpmcp command.
type cliRun struct {
	stdout, stderr string
	code           int
}

// runCLI runs the binary with args and a TMPDIR of its own, and returns what it
// printed and its exit code.
func runCLI(t *testing.T, tmp string, args ...string) cliRun {
	t.Helper()
	return runCLIEnv(t, tmp, nil, args...)
}

// runCLIEnv is runCLI with variables added to the environment.
func runCLIEnv(t *testing.T, tmp string, env []string, args ...string) cliRun {
	t.Helper()
	cmd := exec.Command(binPath, args...)
	cmd.Env = append(procEnv(tmp), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(testbound.Bound()):
		_ = cmd.Process.Kill()
		t.Fatalf("cdpmcp %v did not finish in %s", args, testbound.Bound())
	}
	r := cliRun{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		r.code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestCallNavigate(t *testing.T) {
	t.Parallel()
	tmp, marker := shortTemp(t), newMarker("call")
	url := site.URL("/home.html")
	r := runCLI(t, tmp, "call", "--headless", "--browser-arg="+marker, "navigate", `{"url":"`+url+`"}`)
	if r.code != 0 {
		t.Fatalf("call navigate exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	var fb struct {
		Act   string `json:"act"`
		OK    bool   `json:"ok"`
		Code  int    `json:"code"`
		Delta struct {
			URL   string `json:"url"`
			Title string `json:"title"`
		} `json:"delta"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &fb); err != nil {
		t.Fatalf("stdout is not feedback JSON: %q", r.stdout)
	}
	if fb.Act != "navigate" || !fb.OK || fb.Code != 0 || fb.Delta.URL != url || fb.Delta.Title != "Fixtures home" {
		t.Errorf("feedback = %+v, want ok navigate to %s titled Fixtures home", fb, url)
	}
	if bp, ok := fixtures.FindBrowser(marker); ok {
		t.Errorf("browser %d still running after call exited", bp.PID)
	}
	entries, _ := os.ReadDir(tmp)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "cdpmcp-profile-") {
			t.Errorf("call left its temporary profile %s", e.Name())
		}
	}
}

// A navigation's timeoutMs is the navigation's: a browser slow to launch (a
// loaded machine) does not use it up. The browser here takes longer to start
// than the navigation may take, and the navigation succeeds.
func TestNavigateDeadlineStartsAfterTheLaunch(t *testing.T) {
	t.Parallel()
	shell, err := browserproc.FindHeadless()
	if err != nil {
		t.Fatal(err)
	}
	nav := min(testbound.Scale(8*time.Second), 20*time.Second) // well under the launch's own bound (browserproc.DefaultStartTimeout, 90 s) with the wait below
	tmp, marker := shortTemp(t), newMarker("slowlaunch")
	slow := filepath.Join(tmp, "slow-browser")
	script := fmt.Sprintf("#!/bin/sh\nsleep %d\nexec %s \"$@\"\n", int((nav+2*time.Second)/time.Second), shell)
	if err := os.WriteFile(slow, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	url := site.URL("/home.html")
	r := runCLI(t, tmp, "call", "--headless", "--browser-path", slow, "--browser-arg="+marker, "navigate",
		fmt.Sprintf(`{"url":%q,"timeoutMs":%d}`, url, nav.Milliseconds()))
	if r.code != 0 || !strings.Contains(r.stdout, `"ok":true`) {
		t.Fatalf("navigate with timeoutMs %d after a launch of %v: exit %d\nstdout: %s\nstderr: %s", nav.Milliseconds(), nav+2*time.Second, r.code, r.stdout, r.stderr)
	}
}

// A call that fails says why on stderr (stdout holds only results) and exits 1.
func TestCallRefusesBadInput(t *testing.T) {
	t.Parallel()
	tmp := shortTemp(t)
	r := runCLI(t, tmp, "call", "--headless", "navigate", `{"url":"no-scheme"}`)
	want := "cdpmcp: navigate failed: \"no-scheme\" has no scheme\nhint: include the scheme, e.g. https://no-scheme"
	if r.code != 1 || r.stdout != "" || !strings.HasPrefix(r.stderr, want) {
		t.Errorf("call navigate without a scheme: exit %d\nstdout %q\nstderr %q\nwant stderr %q…", r.code, r.stdout, r.stderr, want)
	}

	r = runCLI(t, tmp, "call", "navigate", `{"url":`)
	if r.code == 0 || !strings.Contains(r.stderr, "JSON object") {
		t.Errorf("call with broken JSON: exit %d, stderr %q", r.code, r.stderr)
	}
	r = runCLI(t, tmp, "call", "noSuchTool", `{}`)
	if r.code == 0 {
		t.Errorf("call of an unknown tool exited 0; stdout %q", r.stdout)
	}
}

func TestToolsCommand(t *testing.T) {
	t.Parallel()
	tmp := shortTemp(t)
	r := runCLI(t, tmp, "tools")
	if r.code != 0 {
		t.Fatalf("tools exit %d: %s", r.code, r.stderr)
	}
	for _, name := range wantTools {
		if !strings.Contains(r.stdout, "\n"+name+" ") && !strings.HasPrefix(r.stdout, name+" ") {
			t.Errorf("tools does not list %s", name)
		}
	}

	r = runCLI(t, tmp, "tools", "--json", "--read-only")
	var list struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil {
		t.Fatalf("tools --json: %v\n%s", err, r.stdout)
	}
	names := map[string]bool{}
	for _, tool := range list.Tools {
		names[tool.Name] = true
	}
	if !names["navigate"] || !names["screenshot"] || names["click"] || names["fill"] {
		t.Errorf("read-only catalogue = %v, want navigate and screenshot, no click or fill", names)
	}

	r = runCLI(t, tmp, "tools", "--json", "--tools", "navigate, getTitle")
	list.Tools = nil
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil || len(list.Tools) != 2 {
		t.Errorf("tools --tools navigate,getTitle = %s (err %v), want two tools", r.stdout, err)
	}
}

func TestUnknownToolNameRefused(t *testing.T) {
	t.Parallel()
	tmp := shortTemp(t)
	for _, args := range [][]string{
		{"tools", "--tools", "navigate,nope"},
		{"serve", "--tools", "nope"},
		{"serve", "--http", "127.0.0.1:0", "--tools", "nope"},
	} {
		r := runCLI(t, tmp, args...)
		if r.code == 0 || !strings.Contains(r.stderr, `unknown tool "nope"`) {
			t.Errorf("cdpmcp %v: exit %d, stderr %q; want a refusal naming nope", args, r.code, r.stderr)
		}
		if r.stdout != "" {
			t.Errorf("cdpmcp %v printed to stdout: %q", args, r.stdout)
		}
	}
}

func TestVersion(t *testing.T) {
	t.Parallel()
	tmp := shortTemp(t)
	if r := runCLI(t, tmp, "version"); r.code != 0 || r.stdout != "cdpmcp e2e-test\n" {
		t.Errorf("version = %q (exit %d), want \"cdpmcp e2e-test\"", r.stdout, r.code)
	}
	if r := runCLI(t, tmp, "--version"); r.code != 0 || !strings.Contains(r.stdout, "e2e-test") {
		t.Errorf("--version = %q (exit %d)", r.stdout, r.code)
	}
}

func TestBadFlagValues(t *testing.T) {
	t.Parallel()
	tmp := shortTemp(t)
	r := runCLI(t, tmp, "serve", "--log-level", "loud")
	if r.code == 0 || !strings.Contains(r.stderr, "--log-level") {
		t.Errorf("serve --log-level loud: exit %d, stderr %q", r.code, r.stderr)
	}
	r = runCLI(t, tmp, "serve", "--http", "127.0.0.1:notaport")
	if r.code == 0 || !strings.Contains(r.stderr, "--http") {
		t.Errorf("serve --http with a bad port: exit %d, stderr %q", r.code, r.stderr)
	}
}
