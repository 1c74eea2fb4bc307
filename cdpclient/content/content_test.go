package content

import (
	"errors"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
)

// The page, or one element, in each format; a selector that is not CSS and a
// format that is not one are the caller's mistakes, a selector that matches
// nothing is NOT_FOUND.
func TestGet(t *testing.T) {
	t.Parallel()
	p, ctx := cdptest.Open(t, "/home.html")
	for _, tt := range []struct{ selector, format, want string }{
		{"", "", "<!DOCTYPE html>"},
		{"", "html", `<p id="msg">Hello from fixtures.</p>`},
		{"", "markdown", "[Second page]("},
		{"#msg", "text", "Hello from fixtures."},
		{"#msg", "html", `<p id="msg">Hello from fixtures.</p>`},
	} {
		got, err := Get(ctx, p, tt.selector, tt.format)
		if err != nil || !strings.Contains(got, tt.want) {
			t.Errorf("Get(%q, %q) = %q, %v; want it to hold %q", tt.selector, tt.format, got, err, tt.want)
		}
	}
	var ae *cdpclient.ArgError
	for _, bad := range [][2]string{{"#msg[", "text"}, {"", "pdf"}} {
		if _, err := Get(ctx, p, bad[0], bad[1]); !errors.As(err, &ae) {
			t.Errorf("Get(%q, %q): %v, want an argument error", bad[0], bad[1], err)
		}
	}
	var e *cdpclient.Error
	if _, err := Get(ctx, p, "#nothing", "text"); !errors.As(err, &e) || e.Code != cdpclient.CodeNotFound || e.Hint == "" {
		t.Errorf("a selector that matches nothing: %v", err)
	}
}

// What components show is read as the page model reads it (the flat tree):
// open shadow roots, template-stamped ones, their slots' words and nested
// roots, in Markdown and text, the whole page or its main content.
func TestReadsShadowTrees(t *testing.T) {
	t.Parallel()
	p, ctx := cdptest.Open(t, "/reading/shadow.html")
	for _, o := range []Options{{Format: "markdown", Whole: true}, {Format: "text", Whole: true}} {
		got, err := Read(ctx, p, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"Light text before the components.", "The lighthouse card", "slotted words about the keeper",
			"Stamped from a template", "Open shadow text about the harbour wall.", "Nested shadow text about the tide clock."} {
			if !strings.Contains(got, want) {
				t.Errorf("%+v: no %q in:\n%s", o, want, got)
			}
		}
	}
}

// getContent reads a page's closed shadow roots without a snapshot first.
func TestReadsClosedShadowRoots(t *testing.T) {
	t.Parallel()
	p, ctx := cdptest.Open(t, "/closed-shadow.html")
	got, err := Read(ctx, p, Options{Format: "text", Whole: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Light text before the widgets.", "Closed text about the card fee.", "Slotted words about the order",
		"Closed consent banner text.", "Nested closed button"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in:\n%s", want, got)
		}
	}
}
