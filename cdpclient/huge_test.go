package cdpclient

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// call is a context like a tool call's: 30 s (the default --timeout), scaled
// for a slow machine (testbound).
func call(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testbound.Scale(30*time.Second))
	t.Cleanup(cancel)
	return ctx
}

// An expression that keeps the page's thread for seconds is the caller's own
// work, not a stuck page: it runs to its end within the call's time.
func TestEvaluateLongScript(t *testing.T) {
	t.Parallel()
	p, _ := openPage(t, "/home.html")
	got, err := evaluate(call(t), p, "(() => { const t = Date.now(); while (Date.now() - t < 3500) {} return 'done'; })()")
	if err != nil || got != `"done"` {
		t.Errorf("a 3.5 s expression: %s %v", got, err)
	}
	short, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_, err = evaluate(short, p, "while (true) {}")
	if err == nil || !strings.Contains(err.Error(), "was stopped") {
		t.Errorf("an endless expression: %v", err)
	}
	if got, err := evaluate(call(t), p, "document.title"); err != nil || got == "" {
		t.Errorf("evaluate after the endless one: %s %v", got, err)
	}
}
