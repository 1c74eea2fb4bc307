package cdpclient

import (
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/pagelog"
)

// What an action's answer says the page did on its own, apart from the
// action: before it began (since the last answer about the tab), and the
// page's polls while it ran.

// before is the answer's before: the page's errors, calls and tabs since
// the last answer (feedback.BeforeAction), where the tab went meanwhile and
// what changed on it (js/between.js). Nil when nothing.
func (o *observation) before(origin string) *feedback.Before {
	p := o.p
	b := feedback.BeforeAction(p.logs.Console(o.errMark), p.logs.Network(o.errMark), o.errMark, o.mark, origin,
		p.mainDocument, p.logs.Refusal, o.openedBefore())
	if moved := o.movedBefore(); moved != "" {
		if b == nil {
			b = &feedback.Before{}
		}
		b.URL = moved
	}
	if c := o.dom.Before; c != nil {
		if d := c.Delta(); !d.Empty() {
			if b == nil {
				b = &feedback.Before{}
			}
			b.Delta = d
		}
	}
	return b
}

// openedBefore lists the tabs p opened on its own between the last answer
// about it and the action's start.
func (o *observation) openedBefore() []string {
	var out []string
	for _, np := range o.p.bc.PagesSince(o.answered) {
		if np.seq <= o.pages && np.opener() == o.p {
			out = append(out, np.ID+" "+np.destination())
		}
	}
	return out
}

// movedBefore is where the tab went on its own between the last answer about
// it and the action's start (a timer's location.assign, a form a timer
// submitted, an SPA's late history.pushState), relative while on the same
// site; "" when it stayed, or was never answered about.
func (o *observation) movedBefore() string {
	if o.answeredURL == nil || *o.answeredURL == o.url || o.url == "" {
		return ""
	}
	if prev := feedback.Origin(*o.answeredURL); prev != "" && prev == feedback.Origin(o.url) {
		return feedback.RelURL(o.url, prev)
	}
	return feedback.Truncate(o.url, 200)
}

// ownRequests are the requests since the action began but the page's polls
// that say nothing (Polls.Noise): a poll's reads would fill every answer on
// a page that polls.
func (o *observation) ownRequests() []pagelog.NetworkEntry {
	all := o.p.logs.Network(o.mark)
	out := all[:0]
	for _, e := range all {
		if !o.polls.Noise(e) {
			out = append(out, e)
		}
	}
	return out
}
