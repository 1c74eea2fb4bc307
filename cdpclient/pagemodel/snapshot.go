package pagemodel

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/snapshot"
	"github.com/cdpmcp/cdpmcp/internal/spans"
	"github.com/mafredri/cdp"
)

// Options modify Snapshot.
type Options struct {
	// Scope limits the snapshot to one element's subtree.
	Scope cdpclient.Target
	// MaxTokens is the budget; 0 means the default policy (chrome and long lists
	// summarised, the main text shown up to snapshot.DefaultTokens), < 0 no limit.
	MaxTokens int
	// From continues a snapshot that was cut: the first line to show, as a
	// marker line gave it ("snapshot {from: 812}").
	From int
	// Diff returns only what changed since the page's previous snapshot.
	Diff bool
}

// state is what the page model keeps on a page (Door.Slot).
type state struct {
	mu        sync.Mutex
	last      []string      // the latest whole-page snapshot's lines, for Diff and Latest
	walkLimit time.Duration // if set, bounds a walk below walkMax (tests)
}

type stateKey struct{}

func stateOf(p *cdpclient.Page) *state {
	return p.Door().Slot(stateKey{}, func() any { return &state{} }).(*state)
}

// Snapshot returns the page as numbered elements and context lines (seed 000's
// format) under a header line, with frames and shadow roots in document order.
func Snapshot(ctx context.Context, p *cdpclient.Page, opts Options) (string, error) {
	text, _, err := snapshotWith(ctx, p, opts, false)
	return text, err
}

// snapshotWith is Snapshot, and SnapshotBoxes' boxes with boxes.
func snapshotWith(ctx context.Context, p *cdpclient.Page, opts Options, boxes bool) (string, []Box, error) {
	var text string
	var shown []Box
	st := stateOf(p)
	_, err := p.Door().Run(ctx, cdpclient.ModeRead, func(ctx context.Context, _ *cdp.Client) error {
		endWalk := spans.Start(ctx, "walk")
		m, info, err := collect(ctx, p, opts.Scope, opts.From > 0, boxes)
		endWalk()
		if err != nil {
			return err
		}
		if boxes {
			shown = shownBoxes(info.Boxes, m.Lines)
		}
		defer spans.Start(ctx, "fit")()
		if opts.From < 0 || (opts.From > 0 && opts.From >= len(m.Lines)) {
			return cdpclient.ArgErrorf(fmt.Sprintf("the snapshot has %d lines; continue from a line a marker names", len(m.Lines)), "from %d is past the end of the snapshot", opts.From)
		}
		header := snapshot.Header(p.ID, info.Title, p.URL(), info.Above, info.Below)
		if opts.From > 0 {
			header += fmt.Sprintf(" — from line %d of %d", opts.From, len(m.Lines))
		}
		st.mu.Lock()
		prev := st.last
		if opts.Scope.IsZero() {
			st.last = m.Lines
		}
		st.mu.Unlock()
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
	return text, shown, err
}

// Lines runs the page model over the whole page and returns its lines in
// the snapshot's format, frames and shadow roots spliced in, handing out
// refs as a snapshot does. Call it inside Door.Run.
func Lines(ctx context.Context, p *cdpclient.Page) ([]string, error) {
	m, _, err := collect(ctx, p, cdpclient.Target{}, false, false)
	if err != nil {
		return nil, err
	}
	return m.Lines, nil
}

// Latest returns the lines of the page's latest whole-page snapshot, whose
// refs the model holds; when no snapshot showed an element yet, the page
// model's lines now (Lines), which hand refs out. Call it inside Door.Run.
func Latest(ctx context.Context, p *cdpclient.Page) ([]string, error) {
	st := stateOf(p)
	st.mu.Lock()
	lines := st.last
	st.mu.Unlock()
	if len(snapshot.ElementRefs(lines)) > 0 {
		return lines, nil
	}
	return Lines(ctx, p)
}
