package failure

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/browserproc"
	"github.com/cdpmcp/cdpmcp/cdpclient/busy"
	"github.com/cdpmcp/cdpmcp/cdpclient/cdpconn"
	"github.com/cdpmcp/cdpmcp/cdpclient/jsdialog"
	"github.com/mafredri/cdp/rpcc"
)

// One classification, by type: every code is reachable, wrapping keeps the
// class, and a message that merely looks like a known one does not.
func TestClassify(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want Code
	}{
		{"page error", &Error{Code: CodeNotFound, Msg: "ref 3 is not on the page"}, CodeNotFound},
		{"unknown page", &UnknownPageError{ID: "p9"}, CodeNotFound},
		{"disabled", &Error{Code: CodeDisabled, Msg: "disabled"}, CodeDisabled},
		{"dialog", &jsdialog.OpenError{Dialog: jsdialog.Dialog{Type: "alert", Message: "hi"}}, CodeObscured},
		{"deadline", context.DeadlineExceeded, CodeTimeout},
		{"busy", &busy.Error{Since: time.Now()}, CodeTimeout},
		{"waiting for a server", fmt.Errorf("snapshot: %w", &busy.Navigating{URL: "http://a.test/slow", Since: time.Now()}), CodeTimeout},
		{"closed", ErrPageClosed, CodeNavigation},
		{"crashed", fmt.Errorf("click: %w", ErrPageCrashed), CodeNavigation},
		{"context gone", fmt.Errorf("evaluate: %w", &rpcc.ResponseError{Code: -32000, Message: "Execution context was destroyed."}), CodeNavigation},
		{"lookalike", errors.New("Execution context was destroyed."), CodeInternal},
		{"anything else", errors.New("boom"), CodeInternal},
		{"disk full", fmt.Errorf("write trace: %w", &fs.PathError{Op: "write", Path: "/data/trace.jsonl", Err: syscall.ENOSPC}), CodeInternal},
		{"thrown", &Error{Code: CodeJSError, Msg: "TypeError: x is undefined", Hint: "fix the expression"}, CodeJSError},
		{"no document", &Error{Code: CodeNetworkError, Msg: "net::ERR_CONNECTION_REFUSED", Hint: "check the URL"}, CodeNetworkError},
		{"connection", &cdpconn.ConnectionError{Err: errors.New("eof")}, CodeBrowserGone},
		{"connection under rpcc", fmt.Errorf("click: %w", &closedConn{&cdpconn.ConnectionError{Err: io.EOF}}), CodeBrowserGone},
		{"session ended", fmt.Errorf("click: %w", &closedConn{io.EOF}), CodeNavigation},
		{"reconnect failed", &cdpconn.ConnectionError{Attached: "http://127.0.0.1:9222", Reconnect: errors.New("connection refused")}, CodeBrowserGone},
		{"shut down", ErrBrowserClosed, CodeBrowserGone},
		{"no browser", &browserproc.LaunchError{Err: errors.New("no browser found"), Hint: "install chromium"}, CodeBrowserUnavailable},
		{"endpoint", &browserproc.SetupError{Msg: "nothing answers at 127.0.0.1:9 (--cdp-endpoint)", Hint: "start Chrome"}, CodeBrowserUnavailable},
		{"permission", &Error{Code: CodePermission, Msg: "blocked"}, CodePermission},
		{"argument", ArgErrorf("use a CSS selector", "%q is not valid", "##"), CodeValidation},
	}
	seen := map[Code]bool{CodeOK: true}
	for _, tt := range tests {
		got := Classify(tt.err)
		if got.Code != tt.want {
			t.Errorf("%s: Classify(%v) = %v, want %v", tt.name, tt.err, got.Code, tt.want)
		}
		if got.Msg == "" || got.Hint == "" && tt.want != CodeNotFound && tt.want != CodeDisabled && tt.want != CodePermission {
			t.Errorf("%s: %+v lacks a message or hint", tt.name, got)
		}
		seen[got.Code] = true
	}
	for c := CodeOK; c <= CodeInternal; c++ {
		if !seen[c] {
			t.Errorf("code %v is not reachable", c)
		}
	}
	if Classify(nil) != nil {
		t.Error("Classify(nil) is not nil")
	}
	if Classify(errors.New("boom")).Hint == Classify(&Error{Code: CodeJSError, Msg: "x"}).Hint || strings.Contains(Classify(errors.New("boom")).Hint, "snapshot") {
		t.Error("an unknown error is told to take a snapshot, as a page's error is")
	}
	for c := CodeOK; c <= CodeInternal+1; c++ {
		if strings.HasPrefix(c.String(), "CODE_") != (c > CodeInternal) {
			t.Errorf("code %d is named %s", c, c)
		}
	}
}

// closedConn stands for rpcc's error for a connection that closed under a
// call (its type is unexported): Closed, unwrapping to why.
type closedConn struct{ err error }

func (e *closedConn) Error() string { return "rpcc: the connection is closing: " + e.err.Error() }
func (e *closedConn) Closed() bool  { return true }
func (e *closedConn) Unwrap() error { return e.err }
