package pagemodel

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/closedroots"
	"github.com/cdpmcp/cdpmcp/cdpclient/snapshot"
)

// maxFrames bounds how many frames one snapshot descends into;
// cdpclient.MaxFrameDepth how deep, a frame in a frame in a frame….
const maxFrames = 40

// How long the page model may walk a page within one call: the walk runs in
// slices with the page running between them (js/snapshot.js), so the page keeps
// answering; past this time the snapshot shows what it read and the walk waits
// in the page to be resumed (snapshot {from}). A call keeps walkReserve (or a
// third of its time, if more) for the frames, fitting and answering.
const (
	walkMax     = 20 * time.Second
	walkMin     = 500 * time.Millisecond
	walkReserve = 2 * time.Second
)

// pageInfo is what a snapshot's header says besides the URL: the document's
// title and how far the page scrolls either way.
type pageInfo struct {
	Title        string
	Above, Below int
	Boxes        []Box // asked for with collect's boxes
}

// frameAt is an <iframe> a walk listed: its ref and the line it is on.
type frameAt struct {
	Ref int `json:"ref"`
	At  int `json:"at"`
}

// frameResult is what the page model returns for one frame.
type frameResult struct {
	Lines  []string  `json:"lines"`
	Frames []frameAt `json:"frames"`
	Groups []struct {
		From int    `json:"from"`
		To   int    `json:"to"`
		Ref  int    `json:"ref"`
		Kind string `json:"kind"`
	} `json:"groups"`
	Main *struct {
		From int `json:"from"`
		To   int `json:"to"`
	} `json:"main"`
	View    [][2]int `json:"view"`
	Partial bool     `json:"partial"`
	Last    int      `json:"last"`
	Scroll  struct {
		Above int `json:"above"`
		Below int `json:"below"`
	} `json:"scroll"`
	Title     string `json:"title"`
	NeedDrops bool   `json:"needDrops"`
	// NeedRoots: the walk met elements that may hold closed shadow roots
	// (package closedroots).
	NeedRoots bool `json:"needRoots"`
	// Boxes (asked for with boxes) are the viewport boxes of the elements
	// the walk gave refs to: [ref, x, y, width, height] in the frame's CSS
	// pixels, placed in the main frame's viewport by walkFrame.
	Boxes [][5]float64 `json:"boxes"`
	// mainFrame: the frame walked is the page's main frame.
	mainFrame bool
}

// walkTime is how long the page model may walk a frame within ctx (and within
// limit, which tests set to stop walks early).
func walkTime(ctx context.Context, limit time.Duration) time.Duration {
	if limit <= 0 {
		limit = walkMax
	}
	d, ok := ctx.Deadline()
	if !ok {
		return limit
	}
	left := time.Until(d)
	return min(max(left-max(left/3, walkReserve), walkMin), limit)
}

// walkFrame runs the page model in one frame. resume continues a walk that
// stopped at its deadline; drops are looked up first on a page with things to
// drag (droptargets.go); view asks which lines are on screen, boxes where
// the elements with refs are (a frame the core does not locate gives none).
func walkFrame(ctx context.Context, p *cdpclient.Page, f cdpclient.Frame, scopeExpr string, resume, view, boxes bool) (frameResult, error) {
	d := p.Door()
	st := stateOf(p)
	st.mu.Lock()
	limit := st.walkLimit
	st.mu.Unlock()
	var res frameResult
	err := d.Frames().In(ctx, f, func(w *cdpclient.World) error {
		return w.HandOutRefs(func(base int) (int, error) {
			drops, rounds := false, 0
			for {
				opts := fmt.Sprintf("{base: %d, scope, groups: true, view: %t, boxes: %t, resume: %t, drops: %t, deadline: %d}",
					base, view, boxes, resume, drops, walkTime(ctx, limit).Milliseconds())
				expr := fmt.Sprintf("(() => { const scope = %s; if (%t && !scope) return null; return __cdpmcp.snapshotSliced(%s); })()",
					scopeExpr, scopeExpr != "null", opts)
				r, err := w.Eval(ctx, expr, true)
				if err != nil {
					return 0, err
				}
				if string(r.Value) == "null" || len(r.Value) == 0 {
					return 0, &cdpclient.Error{Code: cdpclient.CodeNotFound, Msg: "the scope element is not on the page", Hint: "take a snapshot without scope to find it"}
				}
				res = frameResult{}
				if err := json.Unmarshal(r.Value, &res); err != nil {
					return 0, fmt.Errorf("decode snapshot: %w", err)
				}
				if res.NeedDrops && !drops {
					markDropTargets(ctx, p, w)
					drops = true
					continue
				}
				// A closed root found can hold another: a round each, at most
				// maxRootRounds.
				if res.NeedRoots && rounds < closedroots.MaxRounds {
					rounds++
					if closedroots.Reveal(ctx, w, closedroots.Noted) > 0 && !res.Partial {
						// Walked again with what they hold; the refs the
						// first walk handed out stay its elements'.
						base, resume = res.Last, false
						continue
					}
				}
				res.mainFrame = w.Frame() == d.Frames().Main()
				res.Boxes = placeBoxes(ctx, w, res.Boxes)
				return res.Last, nil
			}
		})
	})
	return res, err
}

// collect runs the page model in the main frame (or the scope's frame) and in
// every frame it finds, and splices the frames' lines in place. resume
// continues a walk of a large page that stopped at its deadline; with
// boxes, info.Boxes has where the elements with refs are in the viewport.
func collect(ctx context.Context, p *cdpclient.Page, scope cdpclient.Target, resume, boxes bool) (snapshot.Model, pageInfo, error) {
	d := p.Door()
	var info pageInfo
	var start cdpclient.Frame // the main frame
	scopeExpr := "null"
	switch {
	case scope.Ref != "":
		n, f, err := d.Frames().Ref(scope.Ref)
		if err != nil {
			return snapshot.Model{}, info, err
		}
		start, scopeExpr = f, fmt.Sprintf("__cdpmcp.get(%d)", n)
	case scope.Selector != "":
		b, _ := json.Marshal(scope.Selector)
		scopeExpr = "__cdpmcp.query(" + string(b) + ", true)"
	}
	// The frames' worlds are readied, and the frame tree asked for, while
	// the main frame is walked.
	defer d.Frames().Prepare(ctx)()
	tree := d.Frames().Tree(ctx)
	defer tree()
	frames := 0
	var run func(f cdpclient.Frame, scopeExpr string, depth int) (snapshot.Model, error)
	run = func(f cdpclient.Frame, scopeExpr string, depth int) (snapshot.Model, error) {
		res, err := walkFrame(ctx, p, f, scopeExpr, resume && depth == 0, depth == 0 && scope.IsZero(), boxes)
		if err != nil {
			return snapshot.Model{}, err
		}
		for _, b := range res.Boxes {
			info.Boxes = append(info.Boxes, Box{Ref: int(b[0]), X: b[1], Y: b[2], W: b[3], H: b[4]})
		}
		if depth == 0 {
			info.Above, info.Below = res.Scroll.Above, res.Scroll.Below
			if res.mainFrame {
				info.Title = res.Title
			} else {
				info.Title = p.DocumentTitle(ctx) // scoped to an element in a frame
			}
		}
		m := snapshot.Model{Lines: res.Lines}
		if depth == 0 {
			if res.Main != nil {
				m.Main = snapshot.Span{From: res.Main.From, To: res.Main.To}
			}
			for _, v := range res.View {
				m.View = append(m.View, snapshot.Span{From: v[0], To: v[1]})
			}
			m.Partial = res.Partial
		}
		for _, g := range res.Groups {
			m.Groups = append(m.Groups, snapshot.Group{Span: snapshot.Span{From: g.From, To: g.To}, Ref: g.Ref, Kind: g.Kind})
		}
		// The frames the <iframe>s show, found all at once (as many as
		// the bound leaves, from the last), then walked one after another:
		// each walk hands out the refs that follow the last one's.
		// One <iframe> in a frame the browser says shows one frame: that
		// frame is walked while the lookup checks it is the one.
		guess, guessed := cdpclient.Frame{}, false
		if len(res.Frames) == 1 && !boxes {
			guess, guessed = onlyChild(d, f, tree())
		}
		var children []childLookup
		if depth < cdpclient.MaxFrameDepth && !guessed {
			children = childFrames(ctx, d, f, res.Frames, maxFrames-frames)
		}
		// Splice frames from the last so earlier positions stay valid.
		for i := len(res.Frames) - 1; i >= 0; i-- {
			fr := res.Frames[i]
			if frames >= maxFrames || depth >= cdpclient.MaxFrameDepth {
				continue
			}
			frames++
			var sub snapshot.Model
			var err error
			if guessed {
				sub, err = walkGuessed(ctx, d, f, fr.Ref, guess, func(c cdpclient.Frame) (snapshot.Model, error) { return run(c, "null", depth+1) })
			} else if err = children[i].err; err == nil {
				sub, err = run(children[i].frame, "null", depth+1)
			}
			if err != nil {
				continue // a frame that went away or never loaded shows as its marker only
			}
			m.Splice(fr.At+1, sub)
		}
		return m, nil
	}
	m, err := run(start, scopeExpr, 0)
	return m, info, err
}
