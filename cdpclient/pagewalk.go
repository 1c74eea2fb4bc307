package cdpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/snapshot"
)

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

// frameResult is what the page model returns for one frame.
type frameResult struct {
	Lines  []string `json:"lines"`
	Frames []struct {
		Ref int `json:"ref"`
		At  int `json:"at"`
	} `json:"frames"`
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
}

// walkTime is how long the page model may walk a frame within ctx (and within
// p.walkLimit, which tests set to stop walks early).
func (p *Page) walkTime(ctx context.Context) time.Duration {
	limit := walkMax
	if p.walkLimit > 0 {
		limit = p.walkLimit
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
// drag (droptargets.go); view asks which lines are on screen.
func (p *Page) walkFrame(ctx context.Context, key frameKey, scopeExpr string, resume, view bool) (frameResult, error) {
	var res frameResult
	err := p.withWorld(ctx, key, func(w *worldIn) error {
		drops := false
		for {
			base := p.refs.base()
			opts := fmt.Sprintf("{base: %d, scope, groups: true, view: %t, resume: %t, drops: %t, deadline: %d}",
				base, view, resume, drops, p.walkTime(ctx).Milliseconds())
			expr := fmt.Sprintf("(() => { const scope = %s; if (%t && !scope) return null; return __cdpmcp.snapshotSliced(%s); })()",
				scopeExpr, scopeExpr != "null", opts)
			r, err := w.eval(ctx, expr, true)
			if err != nil {
				return err
			}
			if string(r.Value) == "null" || len(r.Value) == 0 {
				return &Error{Code: CodeNotFound, Msg: "the scope element is not on the page", Hint: "take a snapshot without scope to find it"}
			}
			res = frameResult{}
			if err := json.Unmarshal(r.Value, &res); err != nil {
				return fmt.Errorf("decode snapshot: %w", err)
			}
			if res.NeedDrops && !drops {
				p.markDropTargets(ctx, w)
				drops = true
				continue
			}
			p.refs.record(key, base, res.Last)
			return nil
		}
	})
	return res, err
}

// collect runs the page model in the main frame (or the scope's frame) and in
// every frame it finds, and splices the frames' lines in place. resume
// continues a walk of a large page that stopped at its deadline.
func (p *Page) collect(ctx context.Context, scope Target, resume bool) (snapshot.Model, pageInfo, error) {
	var info pageInfo
	key := frameKey{frame: p.mainFrame}
	scopeExpr := "null"
	switch {
	case scope.Ref != "":
		n, k, err := p.refFrame(scope.Ref)
		if err != nil {
			return snapshot.Model{}, info, err
		}
		key, scopeExpr = k, fmt.Sprintf("__cdpmcp.get(%d)", n)
	case scope.Selector != "":
		b, _ := json.Marshal(scope.Selector)
		scopeExpr = "__cdpmcp.query(" + string(b) + ", true)"
	}
	frames := 0
	var run func(key frameKey, scopeExpr string, depth int) (snapshot.Model, error)
	run = func(key frameKey, scopeExpr string, depth int) (snapshot.Model, error) {
		res, err := p.walkFrame(ctx, key, scopeExpr, resume && depth == 0, depth == 0 && scope.IsZero())
		if err != nil {
			return snapshot.Model{}, err
		}
		if depth == 0 {
			info.Above, info.Below = res.Scroll.Above, res.Scroll.Below
			if key.frame == p.mainFrame {
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
		// Splice frames from the last so earlier positions stay valid.
		for i := len(res.Frames) - 1; i >= 0; i-- {
			fr := res.Frames[i]
			if frames >= maxFrames || depth >= maxFrameDepth {
				continue
			}
			frames++
			child, err := p.childFrame(ctx, key, fr.Ref)
			if err != nil {
				continue // a frame that went away or never loaded shows as its marker only
			}
			sub, err := run(child, "null", depth+1)
			if err != nil {
				continue
			}
			m.Splice(fr.At+1, sub)
		}
		return m, nil
	}
	m, err := run(key, scopeExpr, 0)
	return m, info, err
}
