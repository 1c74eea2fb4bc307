package cdpclient

import (
	"context"
	"errors"
	"fmt"
	"github.com/cdpmcp/cdpmcp/cdpclient/failure"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/busy"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/leaving"
	"github.com/cdpmcp/cdpmcp/cdpclient/pagelog"
	"github.com/cdpmcp/cdpmcp/internal/spans"
)

// observation is what an action's feedback is measured against: the page's
// logs, address, tabs and navigation state before the action, and what was
// seen during it.
type observation struct {
	p             *Page
	kind          actKind
	mark, errMark int
	url           string
	pages         int       // the context's page count at the start
	answered      int       // the context's page count at the last answer about p
	answeredURL   *string   // p's URL at the last answer about it (nil: none yet)
	pendingCalls  *[]string // the calls the last answer about p said were pending
	nav           navMark
	dialogBefore  bool
	dom           domChanges
	observers     []Observer // the features' (doordl.go)
	revived       bool       // a navigation loading a crashed tab anew
	// followed: the answer waited for what the action's calls or submit
	// brought (settle); callsFrom is the page log's mark from which calls
	// are the action's: when its input reached the page.
	followed  bool
	callsFrom int
	// polls are the reads the page repeats on its own (a poll): none of
	// the action's doing, once its handlers ran (settle says when).
	polls pagelog.Polls
	// ws is the frames the action watches (watchStart); signal, when not
	// nil, brings the submit signal an input sent early (earlySignal).
	ws     watchSet
	signal chan bool
	title  titleRead // a navigation's new document's, read as settle's round trip
	typed  bool      // the action added typed text to a field (Typed)

	mu           sync.Mutex
	dialogClosed *feedback.Dialog // a dialog the server answered itself
	left         leaving.Count    // dialogs a navigation answered to leave the page
}

func (o *observation) setDialogClosed(d *feedback.Dialog) {
	o.mu.Lock()
	o.dialogClosed = d
	o.mu.Unlock()
}

func (p *Page) startObservation(kind actKind) *observation {
	mark := p.logs.Mark()
	return &observation{
		p: p, kind: kind, polls: p.logs.Polls(mark),
		mark: mark, errMark: p.logs.Reported(), url: p.URL(), pages: p.bc.Seq(), answered: int(p.answered.Load()),
		answeredURL: p.answeredURL.Load(), pendingCalls: p.pendingCalls.Load(), nav: p.hist.Mark(),
		dialogBefore: p.Dialog() != nil, observers: p.observers(),
	}
}

// happened decides, from the error an action's run returned, whether the action
// took effect: nil or an *Incomplete when it did, the failure otherwise.
func (o *observation) happened(st *actState, err error) error {
	var inc *Incomplete
	var nd notDone
	switch {
	case err == nil, errors.As(err, &inc):
		return err
	case errors.As(err, &nd):
		return nd.err // what the action was for did not come about
	case isDialogErr(err) && !o.dialogBefore && (o.kind != actNavigation || o.p.hist.Mark().Docs > o.nav.Docs):
		// The action opened a dialog, which stopped the page mid-way; a
		// navigation happened only if a document arrived.
		return nil
	case st.dispatched.Load() && o.p.life.Err() == ErrPageClosed:
		// The input closed the tab (a popup done with its work calls
		// window.close()): that is what the action did, and the feedback says
		// so. What failed after it failed on the closed tab.
		return nil
	case st.dispatched.Load():
		// Input reached the page: the action happened, whatever went wrong after.
		c := Classify(err)
		var stuck *busy.Error
		var nav *busy.Navigating
		if errors.As(err, &nav) {
			return nil // it set off a navigation, whose server the feedback says the tab waits for
		}
		if errors.As(err, &stuck) {
			return &Incomplete{Msg: stuck.Error(), Hint: busy.Hint, Err: err}
		}
		return &Incomplete{Msg: c.Msg, Hint: c.Hint, Err: err}
	}
	return err
}

// settleAndWatch waits for what the action started and collects the DOM changes
// it made, unless it left for another document. A dialog that what it started
// opened keeps the watch for the dialog's answer.
func (o *observation) settleAndWatch(ctx context.Context, ws watchSet, lateMs int, err error) {
	p := o.p
	var inc *Incomplete
	if err == nil || errors.As(err, &inc) {
		end := spans.Start(ctx, "settle")
		o.followed = p.settle(ctx, o, ws)
		end()
	}
	if p.Dialog() != nil && !o.dialogBefore {
		p.dialogs.KeepWatch(ws)
		return
	}
	if p.hist.Mark().Docs == o.nav.Docs {
		end := spans.Start(ctx, "watch")
		o.dom = p.watchChanges(ctx, ws, maxQuietMs, lateMs)
		end()
	}
}

// failed is the feedback of an action that did not happen.
func (o *observation) failed(ctx context.Context, err error) *feedback.Feedback {
	return o.feedback(ctx, err)
}

func isDialogErr(err error) bool {
	var d *DialogOpenError
	return errors.As(err, &d)
}

// feedback assembles the answer. err is nil for an action that happened, an
// *Incomplete for one that happened but did not finish, and the failure
// otherwise.
func (o *observation) feedback(ctx context.Context, err error) *feedback.Feedback {
	p := o.p
	fb := &feedback.Feedback{OK: true, Followed: o.followed}
	url := p.URL()
	origin := feedback.Origin(url)
	delta := o.dom.Delta()
	doc := feedback.Document(p.logs.Network(o.mark), p.mainDocument)
	// A navigation says where the tab is, the same URL too (a reload), unless
	// it failed with the tab where it was (a timeout, no history to go to):
	// nothing new to name. One the network refused shows the browser's error
	// page for its URL.
	var inc *Incomplete
	stayed := err != nil && !errors.As(err, &inc) && p.hist.Mark().Docs == o.nav.Docs && Classify(err).Code != CodeNetworkError
	if url != o.url || (o.kind == actNavigation && !stayed) {
		delta.URL = url
		if prev := feedback.Origin(o.url); prev != "" && prev == origin {
			delta.URL = feedback.RelURL(url, origin) // relative while on the same site
		}
		delta.Title = o.documentTitle(ctx)
		if doc != nil && doc.Status >= 300 && !(doc.Status < 400 && doc.Done) {
			delta.Status = doc.Status
		}
	}
	if errors.As(err, &inc) {
		fb.Errors = append(fb.Errors, inc.Msg)
		fb.Hint, fb.Incomplete = inc.Hint, inc.Msg
		err = nil
	}
	fb.Errors = feedback.Errors(append(fb.Errors, feedback.ConsoleErrors(p.logs.Console(max(o.errMark, o.mark)))...), origin)
	fb.Before = o.before(origin)
	p.logs.MarkReported()
	p.answered.Store(int64(p.bc.Seq()))
	p.answeredURL.Store(&url)
	reqs, refused := feedback.Requests(o.ownRequests(), p.mainDocument, p.logs.Refusal,
		delta.URL != "" && o.kind != actNavigation)
	fb.Net, fb.NetMore = feedback.Summarize(reqs, origin, o.kind == actNavigation)
	o.keepPending()
	for _, np := range p.bc.PagesSince(o.pages) {
		line := np.ID + " " + np.destination()
		if why := np.logs.LastRefusal(); why != "" {
			line = np.ID + " blocked: " + why
		}
		fb.Opened = append(fb.Opened, line)
		delta.Page = np.ID
	}
	if p.life.Err() == ErrPageClosed && err == nil && fb.Hint == "" {
		fb.Hint = "this tab closed itself (as a popup does when done)"
		if cur := p.bc.Current(); cur != nil {
			fb.Hint += "; the current tab is now " + cur.ID
		}
	}
	if d := p.Dialog(); d != nil {
		fb.Dialog = &feedback.Dialog{Type: d.Type, Msg: feedback.Truncate(d.Message, 160), Default: feedback.Truncate(d.DefaultPrompt, 160)}
		if !o.dialogBefore {
			fb.Hint = "the page opened a dialog (" + d.Type + "); answer it with handleDialog (accept true or false)"
		}
	} else {
		o.mu.Lock()
		fb.Dialog = o.dialogClosed
		o.mu.Unlock()
	}
	if refused != nil && (err == nil || Classify(err).Code == CodeNetworkError) {
		// The document the action led to was refused: it did not arrive.
		err = &Error{Code: CodePermission, Msg: "blocked: " + refused.Blocked,
			Hint: "this server only lets the browser reach the allowed origins; stay on them"}
	}
	if err == nil && o.kind == actInput {
		if err = o.validation(); errors.As(err, &inc) {
			fb.Errors = append(fb.Errors, inc.Msg)
			fb.Hint, fb.Incomplete, err = inc.Hint, inc.Msg, nil
		}
	}
	if err != nil {
		c := Classify(err)
		fb.OK, fb.Code, fb.Msg, fb.Hint = false, int(c.Code), c.Msg, c.Hint
		if c.Code == CodeNotFound && fb.Before != nil && fb.Before.URL != "" {
			// The element was on the page the model last saw, not on
			// the one the tab went to meanwhile.
			fb.Hint = "the tab went to " + fb.Before.URL + " on its own since the last answer (before.url); take a snapshot of the page it is on"
		}
	} else if doc != nil && doc.Status >= 400 && delta.Status != 0 && fb.Hint == "" {
		fb.Hint = fmt.Sprintf("the server answered %d; the page shows its error page", doc.Status)
	}
	if nav := p.pendingNavigation(); fb.OK && fb.Hint == "" && nav != nil {
		fb.Hint = fmt.Sprintf("the tab is still waiting for %s to answer (%.0f s): %s", nav.URL, time.Since(nav.Since).Seconds(), busy.NavHint)
	}
	if fb.OK && fb.Hint == "" && o.dom.Matches > 1 {
		fb.Hint = fmt.Sprintf("the selector matched %d elements: the action went to the first that shows (a ref from snapshot names one)", o.dom.Matches)
	}
	if !delta.Empty() {
		fb.Delta = delta
	}
	for _, ob := range o.observers {
		ob.Feedback(ctx, fb)
	}
	return fb
}

// mainDocument reports whether a request is for a document of the main frame.
func (p *Page) mainDocument(e pagelog.NetworkEntry) bool {
	main := string(p.hist.Main())
	return e.Type == "Document" && e.ID == e.Loader && (e.Frame == "" || e.Frame == main)
}

// validation is the browser's form validation refusing a submit the action
// made: the form was not sent. An action that typed text (type with
// submit) happened all the same, since the text is in its field: it is
// *Incomplete, so that the caller does not type the text again.
func (o *observation) validation() error {
	if len(o.dom.Invalid) == 0 || o.p.hist.Mark().Docs != o.nav.Docs {
		return nil
	}
	v := o.dom.Invalid[0]
	msg := fmt.Sprintf("the form was not submitted: %s[:]%s: %s", v[0], v[1], v[2])
	hint := fmt.Sprintf("fill %s as it asks, then submit again", v[0])
	if o.typed {
		return &Incomplete{Msg: "the text was typed, but " + msg, Hint: hint + " (the text typed is in its field: do not type it again)"}
	}
	return &Error{Code: CodeValidation, Msg: msg, Hint: hint}
}

// Outcome turns an action's answer into an error for callers that only need to
// know whether it happened (the job horde): nil when it did, an *Error with the
// feedback's code, message and hint when it did not.
var Outcome = failure.Outcome
