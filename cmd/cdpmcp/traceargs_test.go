package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// What a user typed or filled is not in the trace's record of a call, however
// deep the arguments carry it (fillForm's fields), even when the call failed
// before the values reached the page and became known secrets.
func TestTraceArgsHideValuesAtAnyDepth(t *testing.T) {
	for _, args := range []string{
		`{"selector":"#pw","text":"hunter2-typed"}`,
		`{"ref":3,"value":"hunter2-filled"}`,
		`{"fields":[{"selector":"#user","value":"ann"},{"selector":"#pw","value":"hunter2-deep"}]}`,
		`{"fields":[{"ref":4,"value":"hunter2-deep-ref","kind":"password"}],"submit":true}`,
	} {
		got := string(redactArgs(json.RawMessage(args)))
		if strings.Contains(got, "hunter2") || !strings.Contains(got, "[redacted]") {
			t.Errorf("redactArgs(%s) = %s", args, got)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("redactArgs(%s) is not JSON: %s", args, got)
		}
	}
	if got := string(redactArgs(json.RawMessage(`{"url":"https://example.com"}`))); got != `{"url":"https://example.com"}` {
		t.Errorf("arguments without values changed: %s", got)
	}
}
