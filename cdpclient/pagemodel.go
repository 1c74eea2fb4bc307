package cdpclient

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient/snapshot"
	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/page"
)

// maxFrames bounds how many frames one snapshot descends into; maxFrameDepth
// (point.go) how deep, a frame in a frame in a frame….
const maxFrames = 40

// SnapshotOptions modify Snapshot.
type SnapshotOptions struct {
	// Scope limits the snapshot to one element's subtree.
	Scope Target
	// MaxTokens is the budget; 0 means the default policy (chrome and long lists
	// summarised, the main text shown up to snapshot.DefaultTokens), < 0 no limit.
	MaxTokens int
	// From continues a snapshot that was cut: the first line to show, as a
	// marker line gave it ("snapshot {from: 812}").
	From int
	// Diff returns only what changed since the page's previous snapshot.
	Diff bool
}

// pageInfo is what a snapshot's header says besides the URL: the document's
// title and how far the page scrolls either way.
type pageInfo struct {
	Title        string
	Above, Below int
}

// Snapshot returns the page as numbered elements and context lines (seed 000's
// format) under a header line, with frames and shadow roots in document order.
func (p *Page) Snapshot(ctx context.Context, opts SnapshotOptions) (string, error) {
	var text string
	err := p.do(ctx, func(ctx context.Context) error {
		m, info, err := p.collect(ctx, opts.Scope, opts.From > 0)
		if err != nil {
			return err
		}
		if opts.From < 0 || (opts.From > 0 && opts.From >= len(m.Lines)) {
			return argError(fmt.Sprintf("the snapshot has %d lines; continue from a line a marker names", len(m.Lines)), "from %d is past the end of the snapshot", opts.From)
		}
		header := snapshot.Header(p.ID, info.Title, p.URL(), info.Above, info.Below)
		if opts.From > 0 {
			header += fmt.Sprintf(" — from line %d of %d", opts.From, len(m.Lines))
		}
		p.mu.Lock()
		prev := p.lastSnap
		if opts.Scope.IsZero() {
			p.lastSnap = m.Lines
		}
		p.mu.Unlock()
		budget := snapshot.Budget{Tokens: opts.MaxTokens, From: opts.From}
		if opts.MaxTokens == 0 {
			budget.Tokens = snapshot.DefaultTokens
			budget.Summarise = opts.Scope.IsZero()
		}
		if budget.Tokens > 0 {
			budget.Tokens = max(budget.Tokens-snapshot.Estimate(header)-1, 1)
		}
		var lines []string
		if opts.Diff {
			var summary string
			lines, summary = snapshot.Diff(prev, m.Lines)
			header += " — " + summary
			if prev == nil {
				header += " (no earlier snapshot: everything is new)"
			}
			lines = snapshot.FitLines(lines, budget.Tokens)
		} else {
			lines = snapshot.Fit(m, budget)
		}
		text = header + "\n" + strings.Join(lines, "\n")
		return nil
	})
	return text, err
}

// refFrame parses a ref and returns the frame it lives in.
func (p *Page) refFrame(ref string) (int, frameKey, error) {
	n, err := strconv.Atoi(ref)
	if err != nil || n <= 0 {
		return 0, frameKey{}, argError("refs are the numbers at the start of snapshot lines, e.g. \"12\"", "%q is not a ref", ref)
	}
	k, ok := p.refs.lookup(n)
	if !ok {
		hint := "take a snapshot to get refs"
		if p.refs.used() {
			hint = "take a new snapshot: this ref was never handed out on this page"
		}
		return 0, frameKey{}, &Error{Code: CodeNotFound, Msg: "ref " + ref + " is not on the page", Hint: hint}
	}
	return n, k, nil
}

// childFrame finds the frame an <iframe> (by its ref in frame parent) shows: in an
// out-of-process child session, or in the parent's own session.
func (p *Page) childFrame(ctx context.Context, parent frameKey, ref int) (frameKey, error) {
	var id page.FrameID
	err := p.withWorld(ctx, parent, func(w *worldIn) error {
		r, err := w.eval(ctx, fmt.Sprintf("__cdpmcp.get(%d)", ref), false)
		if err != nil || r.ObjectID == nil {
			return fmt.Errorf("iframe %d is gone", ref)
		}
		d, err := w.c.DOM.DescribeNode(ctx, dom.NewDescribeNodeArgs().SetObjectID(*r.ObjectID))
		if err != nil || d.Node.FrameID == nil {
			return fmt.Errorf("iframe %d has no frame", ref)
		}
		id = *d.Node.FrameID
		return nil
	})
	if err != nil {
		return frameKey{}, err
	}
	if f := p.frameSessionFor(id); f != nil {
		return frameKey{session: f.s.id, frame: id}, nil
	}
	return frameKey{session: parent.session, frame: id}, nil
}
