package cdpclient

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

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
		{"dialog", &DialogOpenError{Dialog: Dialog{Type: "alert", Message: "hi"}}, CodeObscured},
		{"deadline", context.DeadlineExceeded, CodeTimeout},
		{"busy", &BusyError{Since: time.Now()}, CodeTimeout},
		{"closed", ErrPageClosed, CodeNavigation},
		{"crashed", fmt.Errorf("click: %w", ErrPageCrashed), CodeNavigation},
		{"context gone", fmt.Errorf("evaluate: %w", &rpcc.ResponseError{Code: -32000, Message: "Execution context was destroyed."}), CodeNavigation},
		{"lookalike", errors.New("Execution context was destroyed."), CodeJSError},
		{"anything else", errors.New("boom"), CodeJSError},
		{"connection", &ConnectionError{Err: errors.New("eof")}, CodeNetworkError},
		{"browser gone", ErrBrowserClosed, CodeNetworkError},
		{"no browser", &LaunchError{Err: errors.New("no browser found"), Hint: launchHint}, CodeNetworkError},
		{"permission", &Error{Code: CodePermission, Msg: "blocked"}, CodePermission},
		{"argument", argError("use a CSS selector", "%q is not valid", "##"), CodeValidation},
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
	for c := CodeOK; c <= CodeValidation; c++ {
		if !seen[c] {
			t.Errorf("code %v is not reachable", c)
		}
	}
	if Classify(nil) != nil {
		t.Error("Classify(nil) is not nil")
	}
}
