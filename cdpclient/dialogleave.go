package cdpclient

import (
	"context"

	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/leaving"
)

// A navigation (navigate, reload, back, forward) leaves the page past its
// dialogs (cdpclient/leaving); these are the calls it makes on the page.
type leavingTab struct{ p *Page }

func (t leavingTab) Dialog() *Dialog          { return t.p.Dialog() }
func (t leavingTab) Changed() <-chan struct{} { return t.p.changed.Watch() }
func (t leavingTab) SetStopping()             { t.p.dialogs.SetStopping() }
func (t leavingTab) IsStopping() bool         { return t.p.dialogs.IsStopping() }
func (t leavingTab) Name() string             { return t.p.ID }
func (t leavingTab) Persons() bool            { return !t.p.bc.b.Launched() && t.p.bc.id == "" }

func (t leavingTab) Answer(ctx context.Context, accept bool) error {
	return t.p.answerDialog(ctx, accept, "")
}

func (t leavingTab) StopLoading(ctx context.Context) error { return t.p.c.Page.StopLoading(ctx) }

func (t leavingTab) Crash(ctx context.Context) error {
	_, err := rawCall(ctx, t.p.s.conn, "Page.crash", nil)
	return err
}

// leaveDialogs closes every dialog that stands between a navigation and
// leaving the page; endless: the page opened them without end, and its
// renderer was stopped.
func (p *Page) leaveDialogs(ctx context.Context) (closed *feedback.Dialog, endless bool, err error) {
	return leaving.All(ctx, leavingTab{p})
}

// leavePast closes a dialog of the page a navigation is leaving, noting it in
// the observation, and reports whether it did (leaving.Past).
func (p *Page) leavePast(ctx context.Context, d *Dialog, o *observation, again context.CancelCauseFunc) bool {
	arrived := p.hist.Mark().Docs > o.nav.Docs
	return leaving.Past(ctx, leavingTab{p}, d, arrived, &o.left, o.setDialogClosed, again)
}
