package main

import (
	"net"
	"strings"
	"testing"
)

// A flag written after the tool name works as one before it; a flag that
// lacks its value says so.
func TestCallFlagAfterTheToolName(t *testing.T) {
	t.Parallel()
	tmp := shortTemp(t)
	url := site.URL("/home.html")
	r := runCLI(t, tmp, "call", "navigate", `{"url":"`+url+`"}`, "--headless", "--browser-arg", newMarker("after"), "--timeout=40s")
	if r.code != 0 || !strings.Contains(r.stdout, `"title":"Fixtures home"`) {
		t.Errorf("call navigate {…} --headless --browser-arg M --timeout=40s: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, tmp, "call", "getTitle", "--browser-path")
	if want := "cdpmcp call: --browser-path needs a value, e.g. --browser-path=VALUE (cdpmcp call --help lists the flags)\n"; r.code != 1 || r.stderr != want || r.stdout != "" {
		t.Errorf("call getTitle --browser-path: exit %d, stderr %q, want %q", r.code, r.stderr, want)
	}
}

// A misspelt flag or command is one line naming the nearest, not the list of
// every flag; a command's flag before the command says where it goes.
func TestMisspeltFlagIsOneLine(t *testing.T) {
	t.Parallel()
	tmp := shortTemp(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"call", "--headles", "getTitle"}, "cdpmcp call: unknown flag --headles; did you mean --headless? (cdpmcp call --help lists the flags)\n"},
		{[]string{"call", "getTitle", "--redonly"}, "cdpmcp call: unknown flag --redonly; did you mean --read-only? (cdpmcp call --help lists the flags)\n"},
		{[]string{"jobs", "--limt", "3"}, "cdpmcp jobs: unknown flag --limt; did you mean --limit? (cdpmcp jobs --help lists the flags)\n"},
		{[]string{"serve", "--max-tabs", "many"}, "cdpmcp serve: --max-tabs \"many\": give a whole number (cdpmcp serve --help lists the flags)\n"},
		{[]string{"--headless", "serve"}, "cdpmcp: --headless is a flag of serve and call and worker: put it after the command, e.g. cdpmcp serve --headless\n"},
		{[]string{"serv"}, "cdpmcp: no command \"serv\"; did you mean serve? (commands: serve, call, tools, jobs, worker, script, version, help)\n"},
		// Another command's flag is named as such, with what to do instead.
		{[]string{"call", "--data-dir", "/tmp/d", "getTitle"}, "cdpmcp call: --data-dir is a flag of serve and jobs and worker, not of call: call runs one tool and keeps no jobs; " +
			"cdpmcp jobs --data-dir DIR lists a data dir's jobs, and cdpmcp serve --data-dir DIR runs them (cdpmcp call --help lists the flags)\n"},
		{[]string{"call", "getTitle", "--http", "127.0.0.1:1"}, "cdpmcp call: --http is a flag of serve, not of call (cdpmcp call --help lists the flags)\n"},
		// A boolean says what it takes.
		{[]string{"call", "--read-only=yes", "getTitle"}, "cdpmcp call: --read-only \"yes\": give true or false (cdpmcp call --help lists the flags)\n"},
		// A misspelt tool names the nearest.
		{[]string{"call", "navigat", `{"url":"https://example.com"}`}, "cdpmcp call: no tool \"navigat\"; did you mean navigate? (cdpmcp tools lists them)\n"},
		{[]string{"call", "noSuchTool"}, "cdpmcp call: no tool \"noSuchTool\" (cdpmcp tools lists them)\n"},
	} {
		r := runCLI(t, tmp, c.args...)
		if r.code != 1 || r.stderr != c.want || r.stdout != "" {
			t.Errorf("cdpmcp %v: exit %d\nstderr %q\nwant   %q\nstdout %q", c.args, r.code, r.stderr, c.want, r.stdout)
		}
	}
}

// serve --http on a port another program holds exits at once with one line
// naming the address and another port, and never says it is serving.
func TestServeOnABusyPort(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	r := runCLI(t, shortTemp(t), "serve", "--headless", "--http", addr)
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	if r.code != 1 || len(lines) != 1 || !strings.HasPrefix(lines[0], "cdpmcp: --http "+addr+": the address is in use") ||
		!strings.Contains(lines[0], "pick another port") || strings.Contains(r.stderr, "serving") {
		t.Errorf("serve --http %s on a busy port: exit %d\nstderr: %s", addr, r.code, r.stderr)
	}
}

// A tool the server does not offer answers why and how to get it, where the
// call said "tool 'click' not found".
func TestUnofferedToolSaysWhy(t *testing.T) {
	t.Parallel()
	tmp := shortTemp(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"call", "--read-only", "click", `{"ref":"1"}`}, "click is not available in --read-only mode: it can change the page"},
		{[]string{"call", "mouse", `{}`}, "mouse is in the vision capability group, which this server does not offer: start it with --caps vision"},
		{[]string{"call", "--tools", "navigate", "getTitle", "{}"}, "getTitle is not offered: this server was started with --tools navigate"},
	} {
		r := runCLI(t, tmp, c.args...)
		want := "cdpmcp: " + c.args[len(c.args)-2] + " failed: " + c.want
		if r.code != 1 || r.stdout != "" || !strings.HasPrefix(r.stderr, want) {
			t.Errorf("cdpmcp %v: exit %d\nstderr %q\nwant   %q…\nstdout %q", c.args, r.code, r.stderr, want, r.stdout)
		}
	}
}

// A variable with a value its flag cannot take names the variable, the flag
// and what it takes.
func TestBadVariableValueIsOneLine(t *testing.T) {
	t.Parallel()
	tmp := shortTemp(t)
	for _, c := range []struct {
		env, want string
	}{
		{"CDPMCP_READ_ONLY=yes", "cdpmcp call: CDPMCP_READ_ONLY \"yes\" (--read-only): give true or false (cdpmcp call --help lists the flags)\n"},
		{"CDPMCP_TIMEOUT=5", "cdpmcp call: CDPMCP_TIMEOUT \"5\" (--timeout): give a duration such as 30s, 2m or 1h (cdpmcp call --help lists the flags)\n"},
	} {
		r := runCLIEnv(t, tmp, []string{c.env}, "call", "getTitle")
		if r.code != 1 || r.stderr != c.want || r.stdout != "" {
			t.Errorf("%s cdpmcp call getTitle: exit %d\nstderr %q\nwant   %q\nstdout %q", c.env, r.code, r.stderr, c.want, r.stdout)
		}
	}
}
