package cdpclient

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
)

// navActs are the actions whose whole point is loading a document.
var navActs = map[string]bool{"navigate": true, "reload": true, "goBack": true, "goForward": true}

// Act runs fn, an action on the page, and reports what it did: outcome code, URL
// change, console errors, requests, new tabs and dialogs. The returned error is
// non-nil only for bad arguments (*ArgError) and for cancellation of ctx; every
// other failure is described in the feedback.
func (p *Page) Act(ctx context.Context, act string, t Target, fn func(context.Context) error) (*feedback.Feedback, error) {
	start := time.Now()
	o := observation{
		p: p, act: act, ref: t.Ref,
		mark: p.logs.Mark(), url: p.URL(), pages: p.bc.Seq(), nav: p.navMark(),
		dialogBefore: p.Dialog() != nil,
	}
	err := fn(ctx)
	var ae *ArgError
	if errors.As(err, &ae) {
		return nil, err
	}
	if errors.Is(ctx.Err(), context.Canceled) {
		return nil, ctx.Err() // the caller gave up: no feedback to give
	}
	if err == nil || (!o.dialogBefore && isDialogErr(err)) {
		p.settle(ctx, o.mark, o.nav)
	}
	fb := o.feedback(ctx, err)
	fb.Timing = time.Since(start).Milliseconds()
	return fb, nil
}

type observation struct {
	p            *Page
	act, ref     string
	mark         int
	url          string
	pages        int
	nav          navMark
	dialogBefore bool
}

func isDialogErr(err error) bool {
	var d *DialogOpenError
	return errors.As(err, &d)
}

func (o *observation) feedback(ctx context.Context, err error) *feedback.Feedback {
	p := o.p
	fb := &feedback.Feedback{Act: o.act, Ref: o.ref, OK: true}
	url := p.URL()
	origin := feedback.Origin(url)
	delta := &feedback.Delta{}
	if url != o.url || navActs[o.act] {
		delta.URL = url
		delta.Title = p.DocumentTitle(ctx)
	}
	var msgs []string
	var reqs []feedback.Request
	var doc *NetworkEntry
	for _, e := range p.logs.Console(o.mark) {
		if e.Level == "error" {
			msgs = append(msgs, e.Text)
		}
	}
	for _, e := range p.logs.Network(o.mark) {
		reqs = append(reqs, feedback.Request{Method: e.Method, URL: e.URL, Type: e.Type, Status: e.Status, Failed: e.Failed, Blocked: e.Blocked})
		if e.Type == "Document" && e.Loader != "" && e.ID == e.Loader {
			doc = &e
		}
	}
	fb.Errors = feedback.Errors(msgs)
	fb.Net = feedback.NetList(reqs, origin)
	for _, np := range p.bc.PagesSince(o.pages) {
		fb.Opened = append(fb.Opened, np.ID+" "+np.URL())
	}
	if d := p.Dialog(); d != nil {
		fb.Dialog = &feedback.Dialog{Type: d.Type, Msg: feedback.Truncate(d.Message, 160)}
		if !o.dialogBefore {
			fb.Hint = "a " + d.Type + " dialog opened; answer it with handleDialog before anything else"
		}
	}
	if err == nil && doc != nil && doc.Status >= 400 && doc.URL == url {
		err = &Error{Code: CodeNetworkError, Msg: fmt.Sprintf("the server answered %d for %s", doc.Status, feedback.RelURL(doc.URL, origin)),
			Hint: "check the URL; the page shown is the server's error page"}
	}
	if err != nil && !(isDialogErr(err) && !o.dialogBefore) {
		code, msg, hint := describeError(err)
		fb.OK, fb.Code, fb.Msg, fb.Hint = false, int(code), msg, hint
	}
	if !delta.Empty() {
		fb.Delta = delta
	}
	return fb
}

// describeError classifies an action's failure for feedback.
func describeError(err error) (code Code, msg, hint string) {
	var e *Error
	var d *DialogOpenError
	var c *ConnectionError
	switch {
	case errors.As(err, &e):
		return e.Code, e.Msg, e.Hint
	case errors.As(err, &d):
		return CodeObscured, err.Error(), "answer it with handleDialog first"
	case errors.Is(err, ErrPageClosed):
		return CodeNavigation, "the page was closed", "use listPages and switchPage, or newPage"
	case errors.Is(err, ErrPageCrashed):
		return CodeNavigation, "the page crashed", "closePage it, or navigate to load it again"
	case errors.As(err, &c):
		return CodeNetworkError, err.Error(), "call the tool again: the browser will be restarted if this server launched it"
	case errors.Is(err, context.DeadlineExceeded):
		return CodeTimeout, "the action did not finish in time", "the page may be busy; take a snapshot, then retry or raise timeoutMs"
	}
	s := err.Error()
	if strings.Contains(s, "context was destroyed") || strings.Contains(s, "navigated or closed") {
		return CodeNavigation, "the page navigated away during the action", "take a snapshot of the new page"
	}
	return CodeJSError, s, "take a snapshot to see the page's state"
}
