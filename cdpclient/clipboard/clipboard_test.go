package clipboard

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

func TestMain(m *testing.M) { os.Exit(cdptest.Main(m)) }

// Text written to the clipboard reads back the same, and the page's origin
// is left without the clipboard permissions it was lent; a tab without a
// secure page cannot reach the clipboard.
func TestClipboardRoundTrip(t *testing.T) {
	t.Parallel()
	p, ctx := cdptest.Open(t, "/home.html")
	state := func(name string) string {
		return cdptest.Eval(t, ctx, p, "navigator.permissions.query({name: '"+name+"'}).then(s => s.state)")
	}
	readBefore, writeBefore := state("clipboard-read"), state("clipboard-write")
	if readBefore == "granted" {
		t.Fatalf("clipboard-read is granted before any use")
	}
	text := "copied 🌍 line one\nline two"
	if err := Write(ctx, p, text); err != nil {
		t.Fatal(err)
	}
	got, err := Read(ctx, p)
	if err != nil || got != text {
		t.Errorf("Read = %q, %v; want %q", got, err, text)
	}
	if r, w := state("clipboard-read"), state("clipboard-write"); r != readBefore || w != writeBefore {
		t.Errorf("the page kept the clipboard: read %s (was %s), write %s (was %s)", r, readBefore, w, writeBefore)
	}
	// The page's own script still cannot read it.
	if got := cdptest.Eval(t, ctx, p, "navigator.clipboard.readText().then(() => 'read', e => e.name)"); got == "read" {
		t.Error("the page read the clipboard after cdpmcp did")
	}

	blank := cdptest.NewPage(t)
	var e *cdpclient.Error
	if _, err := Read(testbound.Context(t), blank); !errors.As(err, &e) || e.Code != cdpclient.CodePermission || !strings.Contains(e.Hint, "navigate") {
		t.Errorf("the clipboard from a blank tab: %v", err)
	}
	var ae *cdpclient.ArgError
	if err := Write(ctx, p, strings.Repeat("x", MaxText+1)); !errors.As(err, &ae) {
		t.Errorf("writing more than MaxText: %v", err)
	}
}
