package pagemodel

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/snapshot"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mafredri/cdp"
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

// frameActions replaces the page with a main-frame form whose submit the
// page takes over in script (its effect comes 150 ms later), a button under
// a cover, and a same-site frame whose button changes both documents.
const frameActions = `(() => {
  document.body.innerHTML = '<p id="ms">main idle</p>' +
    '<form id="f"><button id="send">Send it</button></form><p id="late">not yet</p>' +
    '<div style="position:relative"><button id="under">Covered one</button>' +
    '<div style="position:absolute;inset:0;background:#fff">Cover sheet</div></div>' +
    '<iframe title="Widget" srcdoc="<p id=fs>frame idle</p><button onclick=&quot;' +
    'parent.document.getElementById(\'ms\').textContent = \'main changed\'; ' +
    'document.getElementById(\'fs\').textContent = \'frame changed\'&quot;>Both change</button>"></iframe>';
  document.getElementById('f').addEventListener('submit', (e) => {
    e.preventDefault();
    setTimeout(() => { document.getElementById('late').textContent = 'sent late'; }, 150);
  });
  return true;
})()`

// TestFrameActionFeedback: an action by ref reports what it changed in its
// own frame and in the main frame (whose watch starts beside the target's),
// a click's script-handled submit is followed to its late effect (the submit
// signal read beside the click guard's verdict), and a click whose target is
// covered is refused with the page unchanged (the readiness checked with the
// ref's lookup says so, and the click asks again to word why).
func TestFrameActionFeedback(t *testing.T) {
	t.Parallel()
	p, ctx := open(t, "/frame-child.html")
	if _, err := evaluate(ctx, p, frameActions); err != nil {
		t.Fatal(err)
	}
	var s string
	testbound.UntilNil(t, "the frame's button in the snapshot", func() error {
		var err error
		if s, err = Snapshot(ctx, p, Options{MaxTokens: -1}); err == nil && !strings.Contains(s, "Both change") {
			err = fmt.Errorf("no frame button yet:\n%s", s)
		}
		return err
	})
	texts := func(fb *feedback.Feedback) string {
		var out []string
		if fb.Delta != nil {
			for _, tx := range fb.Delta.Text {
				out = append(out, tx[1])
			}
		}
		return strings.Join(out, "|")
	}
	fb, err := p.Click(ctx, cdpclient.Target{Ref: refOf(t, s, "Both change")}, cdpclient.ClickOptions{})
	if err := outcome(fb, err); err != nil {
		t.Fatalf("click in the frame: %v", err)
	}
	if got := texts(fb); !strings.Contains(got, "main changed") || !strings.Contains(got, "frame changed") {
		t.Errorf("click in the frame: delta text %q, want both documents' changes", got)
	}
	fb, err = p.Click(ctx, cdpclient.Target{Ref: refOf(t, s, "Send it")}, cdpclient.ClickOptions{})
	if err := outcome(fb, err); err != nil {
		t.Fatalf("click submit: %v", err)
	}
	if got := texts(fb); !strings.Contains(got, "sent late") || !fb.Followed {
		t.Errorf("click submit: delta text %q, followed %v; want the late effect, followed", got, fb.Followed)
	}
	err = outcome(p.Click(ctx, cdpclient.Target{Ref: refOf(t, s, "Covered one")}, cdpclient.ClickOptions{}))
	wantCode(t, err, cdpclient.CodeObscured)
	if !strings.Contains(err.Error(), "Cover sheet") {
		t.Errorf("obscured error %q does not name the cover", err)
	}
}

// TestWalkGuessedWrong: a frame guessed from a stale frame tree that is not
// the one its <iframe> shows is not what the snapshot splices in: the frame
// the lookup finds is walked instead.
func TestWalkGuessedWrong(t *testing.T) {
	t.Parallel()
	p, ctx := open(t, "/frame-child.html")
	if _, err := evaluate(ctx, p, `(() => { document.body.innerHTML =
	  '<iframe title="One" srcdoc="<p>One</p>"></iframe><iframe title="Two" srcdoc="<p>Two</p>"></iframe>'; return true })()`); err != nil {
		t.Fatal(err)
	}
	d := p.Door()
	_, err := d.Run(ctx, cdpclient.ModeRead, func(ctx context.Context, _ *cdp.Client) error {
		var res frameResult
		var kids []string
		testbound.UntilNil(t, "both frames listed and in the frame tree", func() error {
			var err error
			if res, err = walkFrame(ctx, p, cdpclient.Frame{}, "null", false, false, false); err != nil {
				return err
			}
			kids = d.Frames().Tree(ctx)()[d.Frames().Main()]
			if len(res.Frames) != 2 || len(kids) != 2 {
				return fmt.Errorf("%d frames listed, %d in the tree", len(res.Frames), len(kids))
			}
			return nil
		})
		main := cdpclient.Frame{}
		one, err := childFrame(ctx, d, main, res.Frames[0].Ref)
		if err != nil {
			return err
		}
		wrong := d.Frames().ChildOf(main, kids[0])
		if wrong == one {
			wrong = d.Frames().ChildOf(main, kids[1])
		}
		var walked []string
		m, err := walkGuessed(ctx, d, main, res.Frames[0].Ref, wrong, func(f cdpclient.Frame) (snapshot.Model, error) {
			walked = append(walked, f.ID())
			return snapshot.Model{Lines: []string{f.ID()}}, nil
		})
		if err != nil {
			return err
		}
		if len(m.Lines) != 1 || m.Lines[0] != one.ID() || len(walked) != 2 || walked[1] != one.ID() {
			t.Errorf("walked %v and answered %v; want the guess %s, then the frame shown %s", walked, m.Lines, wrong.ID(), one.ID())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
