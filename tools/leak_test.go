package tools

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// Cancelled calls leave nothing running: the goroutines a batch of cancelled
// waits started are gone soon after. (Not parallel: other tests would move the
// count.)
func TestCancelledCallsLeakNothing(t *testing.T) {
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/home.html")}))
	mustOK(t, callTool(t, c, "waitForTimeout", map[string]any{"ms": 10}))
	settle := func() int {
		var n int
		for range 50 {
			runtime.GC()
			n = runtime.NumGoroutine()
			time.Sleep(20 * time.Millisecond)
			if m := runtime.NumGoroutine(); m == n {
				break
			}
		}
		return n
	}
	before := settle()
	for range 20 {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(50*time.Millisecond, cancel)
		if _, err := callToolErr(ctx, c, "waitFor", map[string]any{"text": "never there", "timeoutMs": 30000}); err == nil {
			t.Fatal("a cancelled call returned a result")
		}
	}
	var after int
	for deadline := time.Now().Add(testbound.Bound()); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if after = settle(); after <= before+2 {
			break
		}
	}
	if after > before+2 {
		buf := make([]byte, 1<<20)
		t.Errorf("goroutines: %d before, %d after 20 cancelled calls\n%s", before, after, buf[:runtime.Stack(buf, true)])
	}
	// The page still works.
	mustOK(t, callTool(t, c, "click", map[string]any{"selector": "a"}))
}
