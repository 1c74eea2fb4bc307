package capture

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/eval"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/cdpclient/pagemodel"
	"github.com/cdpmcp/cdpmcp/cdpclient/wait"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// An annotated screenshot of a page with a cross-site frame differs from the
// plain one, and leaves nothing in the page.
func TestAnnotatedScreenshot(t *testing.T) {
	t.Parallel()
	p, ctx := cdptest.Open(t, "/snapshot.html")
	// The cross-site frame loads after the page; wait for its button.
	if err := cdpclient.Outcome(wait.For(ctx, p, wait.Spec{Target: cdpclient.Target{Selector: "#cross"}})); err != nil {
		t.Fatal(err)
	}
	testbound.Until(t, "the snapshot shows both frames' buttons", func() bool {
		s, err := pagemodel.Snapshot(ctx, p, pagemodel.Options{MaxTokens: -1})
		if err != nil {
			t.Fatal(err)
		}
		return strings.Count(s, "Frame button") == 2
	})
	plain, _, err := Screenshot(ctx, p, ScreenshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	marked, _, err := Screenshot(ctx, p, ScreenshotOptions{Annotate: true})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(plain, marked) {
		t.Fatal("annotated screenshot equals the plain one")
	}
	_ = os.WriteFile(filepath.Join(t.ArtifactDir(), "cdpmcp-annotated.png"), marked, 0o644) // kept with go test -artifacts
	// The drawing is gone afterwards and took no clicks while there.
	if n, _ := eval.Evaluate(ctx, p, "document.querySelectorAll('[data-cdpmcp-annotations]').length", eval.Options{}); n != "0" {
		t.Errorf("annotation layer left in the page: %s", n)
	}
}

// What a screenshot cannot be asked for is the caller's mistake.
func TestScreenshotArguments(t *testing.T) {
	t.Parallel()
	p := cdptest.NewPage(t)
	ctx := testbound.Context(t)
	for _, opts := range []ScreenshotOptions{
		{Format: "gif"},
		{Format: "jpeg", Quality: 101},
		{FullPage: true, Target: cdpclient.Target{Selector: "body"}},
	} {
		var argErr *cdpclient.ArgError
		if _, _, err := Screenshot(ctx, p, opts); !errors.As(err, &argErr) {
			t.Errorf("%+v: %v, want an argument error", opts, err)
		}
	}
}
