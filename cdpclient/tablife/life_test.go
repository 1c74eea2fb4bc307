package tablife

import (
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/failure"
)

// A tab lives until it crashes (and lives again once loaded anew) or
// closes; closed wins over crashed, and for good.
func TestLife(t *testing.T) {
	var l Life
	if err := l.Err(); err != nil {
		t.Fatalf("a new tab: %v", err)
	}
	if l.Uncrash() {
		t.Error("Uncrash of a tab that did not crash reported a crash")
	}
	l.Crash()
	if err := l.Err(); err != failure.ErrPageCrashed {
		t.Errorf("after Crash: %v", err)
	}
	if !l.Uncrash() || l.Err() != nil {
		t.Errorf("after Uncrash: %v", l.Err())
	}
	l.Crash()
	l.Close()
	if err := l.Err(); err != failure.ErrPageClosed {
		t.Errorf("crashed and closed: %v", err)
	}
	l.Uncrash()
	if err := l.Err(); err != failure.ErrPageClosed {
		t.Errorf("closed, then Uncrash: %v", err)
	}
}
