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
	if late := o.answeredLate(); len(late) > 0 {
		if b == nil {
			b = &feedback.Before{}
		}
		rs, _ := feedback.Requests(late, p.mainDocument, p.logs.Refusal, false)
		net, _ := feedback.Summarize(rs, origin, false)
		b.Net = append(net, b.Net...)
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

// answeredLate are the calls the last answer said were pending that have
// been answered since (a save whose server took 3 s: its 200, or its 500).
func (o *observation) answeredLate() []pagelog.NetworkEntry {
	if o.pendingCalls == nil {
		return nil
	}
	ids := map[string]bool{}
	for _, id := range *o.pendingCalls {
		ids[id] = true
	}
	var out []pagelog.NetworkEntry
	for _, e := range o.p.logs.Network(0) {
		if ids[e.ID] && (e.Done || e.Status != 0) {
			out = append(out, e)
		}
	}
	return out
}

// keepPending keeps, for the next answer, the ids of the page's calls this
// answer says are pending, and of those the last one did that still are.
func (o *observation) keepPending() {
	var ids []string
	seen := map[string]bool{}
	if o.pendingCalls != nil {
		for _, id := range *o.pendingCalls {
			seen[id] = true
		}
	}
	for _, e := range o.p.logs.Network(0) {
		mine := e.Seq > o.mark && !o.polls.Noise(e) || seen[e.ID]
		if mine && (e.Type == "Fetch" || e.Type == "XHR") && !e.Done && e.Status == 0 {
			ids = append(ids, e.ID)
		}
	}
	o.p.pendingCalls.Store(&ids)
}
