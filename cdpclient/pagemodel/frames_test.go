package pagemodel

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// manyFrames replaces the page with frames side by side and nested, one
// cross-site, and one that a page script adds and removes again and again
// (it goes away while snapshots walk the page).
const manyFrames = `(() => {
  const cross = location.protocol + '//localhost:' + location.port + '/frame-child.html?cross=many';
  document.body.innerHTML = '<p>Top text</p>' +
    '<iframe title="Alpha" srcdoc="<p>Alpha text</p><button>Alpha button</button>' +
    '<iframe title=&quot;Alpha inner&quot; srcdoc=&quot;<p>Inner text</p><button>Inner button</button>&quot;></iframe>' +
    '<p>Alpha after</p>"></iframe>' +
    '<p>Between</p>' +
    '<iframe title="Beta" srcdoc="<button>Beta button</button>"></iframe>' +
    '<iframe title="Cross" src="' + cross + '"></iframe>' +
    '<div id="slot"></div>' +
    '<p>After text</p>';
  const slot = document.getElementById('slot');
  setInterval(() => {
    if (slot.firstChild) { slot.firstChild.remove(); return; }
    const f = document.createElement('iframe');
    f.title = 'Flicker';
    f.srcdoc = '<button>Flicker button</button>';
    slot.append(f);
  }, 3);
  return true;
})()`

// TestSnapshotManyFrames: every frame's lines come under its own <iframe>
// marker, in document order, however many frames there are and whether
// one goes away during the walk.
func TestSnapshotManyFrames(t *testing.T) {
	t.Parallel()
	p, ctx := open(t, "/frame-child.html")
	if _, err := evaluate(ctx, p, manyFrames); err != nil {
		t.Fatal(err)
	}
	order := []string{"_[:]Top text", `_[:]iframe "Alpha":`, "_[:]Alpha text", "Alpha button",
		`_[:]iframe "Alpha inner":`, "_[:]Inner text", "Inner button", "_[:]Alpha after",
		"_[:]Between", `_[:]iframe "Beta":`, "Beta button",
		`_[:]iframe "Cross":`, "_[:]Frame text", "Frame button", "_[:]After text"}
	testbound.UntilNil(t, "the cross-site frame in the snapshot", func() error {
		s, err := Snapshot(ctx, p, Options{MaxTokens: -1})
		if err != nil {
			return err
		}
		if !strings.Contains(s, "Frame button") {
			return fmt.Errorf("no cross-site frame yet:\n%s", s)
		}
		return nil
	})
	flickered := 0
	for i := range 15 {
		s, err := Snapshot(ctx, p, Options{MaxTokens: -1})
		if err != nil {
			t.Fatalf("snapshot %d: %v", i, err)
		}
		lines := strings.Split(s, "\n")
		at := 0
		for _, want := range order {
			j := indexFrom(lines, at, want)
			if j < 0 {
				t.Fatalf("snapshot %d: %q not after line %d:\n%s", i, want, at, s)
			}
			at = j + 1
		}
		// The frame that comes and goes shows with its button under its
		// marker, or as its marker alone, or not at all: never its button
		// elsewhere.
		for j, l := range lines {
			if strings.Contains(l, `iframe "Flicker":`) {
				flickered++
			}
			if strings.Contains(l, "Flicker button") && (j == 0 || !strings.Contains(lines[j-1], `iframe "Flicker":`)) {
				t.Fatalf("snapshot %d: the flickering frame's button is not under its marker:\n%s", i, s)
			}
		}
	}
	t.Logf("the flickering frame showed in %d of 15 snapshots", flickered)
}

// indexFrom is the index of the first line at or after from that contains
// part, or -1.
func indexFrom(lines []string, from int, part string) int {
	for j := from; j < len(lines); j++ {
		if strings.Contains(lines[j], part) {
			return j
		}
	}
	return -1
}
