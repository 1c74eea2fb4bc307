package input

import (
	"regexp"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/eval"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/cdpclient/pagemodel"
	"github.com/cdpmcp/cdpmcp/internal/poll"
)

// Three levels of frames, each from the other site (127.0.0.1 ⇄ localhost) and
// so out of process, the innermost with a form and a shadow root: refs from
// the snapshot work there as anywhere, clicks land (the offsets of every frame
// add up), and page state shows it.
func TestNestedCrossSiteFrames(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	p := newTestPage(t)
	if err := outcome(p.Navigate(ctx, cdptest.Site.URL("/parity/nest.html?d=3"), cdpclient.WaitLoad)); err != nil {
		t.Fatal(err)
	}
	snap, err := pagemodel.Snapshot(ctx, p, pagemodel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ref := func(re string) cdpclient.Target {
		m := regexp.MustCompile(`(?m)^(\d+)\[:\]` + re).FindStringSubmatch(snap)
		if m == nil {
			t.Fatalf("no %s in snapshot:\n%s", re, snap)
		}
		return cdpclient.Target{Ref: m[1]}
	}
	steps := []struct {
		name string
		run  func() error
	}{
		{"type", func() error { return outcome(Type(ctx, p, ref(`<input`), "Ada", true, false)) }},
		{"select", func() error { return outcome(SelectOption(ctx, p, ref(`<select`), []string{"Pro"})) }},
		{"click", func() error { return outcome(p.Click(ctx, ref(`<button>Send`), cdpclient.ClickOptions{})) }},
		{"shadow click", func() error { return outcome(p.Click(ctx, ref(`<button>Shadow`), cdpclient.ClickOptions{})) }},
		{"hover", func() error { return outcome(p.Hover(ctx, ref(`<button>Send`))) }},
	}
	for _, s := range steps {
		if err := s.run(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
	}
	after, err := pagemodel.Snapshot(ctx, p, pagemodel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"_[:]sent Ada Pro", "_[:]pressed"} {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(want) + `$`).MatchString(after) {
			t.Errorf("after acting in the innermost frame the page lacks %q:\n%s", want, after)
		}
	}
}

// A frame that navigates or is replaced while in use: the old refs fail with
// NOT_FOUND (never another element), a new snapshot's refs work, whether the
// new document is out of process or in the page's own.
func TestFramesNavigatedOrReplaced(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	p := newTestPage(t)
	if err := outcome(p.Navigate(ctx, cdptest.Site.URL("/parity/nest.html?d=1"), cdpclient.WaitLoad)); err != nil {
		t.Fatal(err)
	}
	inputRef := regexp.MustCompile(`(?m)^(\d+)\[:\]<input`)
	inner := cdptest.Site.URL("/parity/nest.html?d=0")
	for _, change := range []struct{ name, script string }{
		{"navigated to the page's own site", `document.querySelector('iframe').src = ` + jsString(inner)},
		{"replaced by a cross-site frame", `(() => { const old = document.querySelector('iframe'); const f = document.createElement('iframe');
			f.src = old.src.replace('127.0.0.1', 'localhost'); old.replaceWith(f); })()`},
	} {
		snap, err := pagemodel.Snapshot(ctx, p, pagemodel.Options{})
		if err != nil {
			t.Fatal(err)
		}
		old := inputRef.FindStringSubmatch(snap)
		if old == nil {
			t.Fatalf("no input:\n%s", snap)
		}
		if _, err := eval.Evaluate(ctx, p, change.script, eval.Options{}); err != nil {
			t.Fatal(err)
		}
		// Refs are never reused: the new document's input has a new one.
		var now []string
		err = poll.Until(ctx, 50*time.Millisecond, func() (bool, error) {
			snap, err = pagemodel.Snapshot(ctx, p, pagemodel.Options{})
			now = inputRef.FindStringSubmatch(snap)
			return err == nil && now != nil && now[1] != old[1], err
		})
		if err != nil {
			t.Fatalf("%s: no new input: %v\n%s", change.name, err, snap)
		}
		err = outcome(p.Click(ctx, cdpclient.Target{Ref: old[1]}, cdpclient.ClickOptions{}))
		if e, ok := err.(*cdpclient.Error); !ok || e.Code != cdpclient.CodeNotFound {
			t.Errorf("%s: the old ref: %v", change.name, err)
		}
		if err := outcome(Type(ctx, p, cdpclient.Target{Ref: now[1]}, "Grace", true, true)); err != nil {
			t.Errorf("%s: type into the new frame: %v", change.name, err)
		}
		if after, _ := pagemodel.Snapshot(ctx, p, pagemodel.Options{}); !regexp.MustCompile(`(?m)^_\[:\]sent Grace Basic$`).MatchString(after) {
			t.Errorf("%s: the form was not sent:\n%s", change.name, after)
		}
	}
}
