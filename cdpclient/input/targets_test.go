package input

import (
	"regexp"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/eval"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/cdpclient/pagemodel"
)

// headingRef finds the ref on the heading line "N[:]## name".
func headingRef(t *testing.T, snap, name string) string {
	t.Helper()
	return cdptest.HeadingRef(t, snap, name)
}

// A board whose columns are sections named by their headings, with drop
// listeners added by script (the snapshot's targets): dropping on the refs
// of a column's heading and of the drop zone moves the cards.
func TestDragOntoSnapshotTargets(t *testing.T) {
	t.Parallel()
	p, ctx := open(t, "/targets/kanban.html")
	s := snapshot(t, ctx, p, pagemodel.Options{})
	card := refOf(t, s, "Fix the login redirect")
	if err := outcome(Drag(ctx, p, cdpclient.Target{Ref: card}, DragEnd{Target: cdpclient.Target{Ref: headingRef(t, s, "Done")}})); err != nil {
		t.Fatal(err)
	}
	if got := pageText(t, ctx, p, "#log"); got != "Fix the login redirect moved to Done" {
		t.Errorf("log = %q", got)
	}
	archive := regexp.MustCompile(`(?m)^(\d+)\[:\]<div drop>`).FindStringSubmatch(s)
	if err := outcome(Drag(ctx, p, cdpclient.Target{Ref: refOf(t, s, "Write the changelog")}, DragEnd{Target: cdpclient.Target{Ref: archive[1]}})); err != nil {
		t.Fatal(err)
	}
	if got := pageText(t, ctx, p, "#log"); got != "Write the changelog archived" {
		t.Errorf("log = %q", got)
	}
}

// An infinite feed scrolled to its 95th post: the long list keeps its first
// posts, the posts on screen with their refs, and its last, and says where
// the rest starts. Posts in plain boxes (no list) cut to a small budget keep
// what is on screen too.
func TestSnapshotKeepsScreen(t *testing.T) {
	t.Parallel()
	for _, path := range []string{"/targets/feed.html", "/targets/feed.html?plain=1"} {
		p := newTestPage(t)
		ctx := testContext(t)
		if err := outcome(p.Navigate(ctx, cdptest.Site.URL(path), cdpclient.WaitLoad)); err != nil {
			t.Fatal(err)
		}
		// Scroll as a person does, a screen at a time, until post 95 loads.
		for range 60 {
			if n, _ := eval.Evaluate(ctx, p, "String(!!document.getElementById('post-95'))", eval.Options{}); n == `"true"` {
				break
			}
			if err := outcome(Scroll(ctx, p, "down", 2000, cdpclient.Target{})); err != nil {
				t.Fatal(err)
			}
		}
		if err := outcome(Scroll(ctx, p, "to_element", 0, cdpclient.Target{Selector: "#post-95"})); err != nil {
			t.Fatal(err)
		}
		opts := pagemodel.Options{}
		if strings.Contains(path, "plain") {
			opts.MaxTokens = 3000
		}
		s, err := pagemodel.Snapshot(ctx, p, opts)
		if err != nil {
			t.Fatal(err)
		}
		wantIn(t, s, "[:]## Post 1\n", "[:]## Post 95\n", "Post 95 says:", "[:]<button>Like post 95</button>", "snapshot {from: ")
		if !regexp.MustCompile(`… \d+ more [^\n]*snapshot \{from: \d+\}`).MatchString(s) {
			t.Errorf("%s: nothing says what was left out:\n%s", path, s)
		}
		if strings.Contains(s, "## Post 60\n") {
			t.Errorf("%s: the posts between the top and the screen are not shortened", path)
		}
		if err := outcome(p.Click(ctx, cdpclient.Target{Ref: refOf(t, s, "Like post 95")}, cdpclient.ClickOptions{})); err != nil {
			t.Errorf("%s: click on post 95's button: %v", path, err)
		}
	}
}

func wantIn(t *testing.T, s string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(s, w) {
			t.Errorf("snapshot lacks %q", w)
		}
	}
}
