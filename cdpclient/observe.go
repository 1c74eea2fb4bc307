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

// watchActs only observe the page: what the page does meanwhile is reported but
// does not make them fail.
var watchActs = map[string]bool{"waitFor": true}

// maxQuietMs bounds the wait for the DOM to go quiet after an action.
const maxQuietMs = 300

// Act runs fn, an action on the page, and reports what it did: outcome code, URL
// change, DOM changes keyed by ref, console errors (including late ones from
// earlier actions), requests, new tabs and dialogs. The returned error is non-nil
// only for bad arguments (*ArgError) and for cancellation of ctx; every other
// failure is described in the feedback.
func (p *Page) Act(ctx context.Context, act string, t Target, fn func(context.Context) error) (*feedback.Feedback, error) {
	start := time.Now()
	ctx, end := p.beginAction(ctx)
	defer end()

	o := &observation{
		p: p, act: act, ref: t.Ref,
		mark: p.logs.Mark(), errMark: p.errorsReported(), url: p.URL(), pages: p.bc.Seq(), nav: p.navMark(),
		dialogBefore: p.Dialog() != nil,
	}
	ws := p.watchStart(ctx, t)
	err := p.recoverIfStuck(fn(ctx))
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
	if p.navMark().docs == o.nav.docs {
		o.dom = p.watchChanges(ctx, ws, maxQuietMs)
	}
	fb := o.feedback(ctx, err)
	fb.Timing = time.Since(start).Milliseconds()
	return fb, nil
}

// actLock marks a context whose action already holds the page's action lock.
type actLock struct{ p *Page }

// beginAction takes the page's action lock and starts an object group for the
// action; end releases both. Calls under the returned context (marked with
// actLock) do not take the lock again.
func (p *Page) beginAction(ctx context.Context) (context.Context, func()) {
	p.actMu.Lock()
	p.newGroup()
	return context.WithValue(ctx, actLock{p}, true), func() {
		p.releaseObjects()
		p.actMu.Unlock()
	}
}

type observation struct {
	p             *Page
	act, ref      string
	mark, errMark int
	url           string
	pages         int
	nav           navMark
	dialogBefore  bool
	dom           domChanges
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
	delta := o.delta()
	if url != o.url || navActs[o.act] {
		// Relative to where the page was when it stays on the same site.
		delta.URL = url
		if prev := feedback.Origin(o.url); prev != "" && prev == origin {
			delta.URL = feedback.RelURL(url, origin)
		}
		delta.Title = p.DocumentTitle(ctx)
	}
	var msgs []string
	var exception string
	for _, e := range p.logs.Console(o.errMark) {
		if e.Level != "error" {
			continue
		}
		msgs = append(msgs, e.Text)
		if e.Exception && e.Seq > o.mark && exception == "" {
			exception = e.Text
		}
	}
	p.markErrorsReported()
	var reqs []feedback.Request
	var failed, refused *NetworkEntry
	for _, e := range p.logs.Network(o.mark) {
		if why, ok := p.blocked.reason(e.URL); ok && strings.HasPrefix(e.Failed, blockedByClient) {
			e.Blocked = "policy"
			if refused == nil {
				refused = &e
				refused.Blocked = why
			}
		}
		if delta.URL != "" && !navActs[o.act] && redirectHop(e) {
			continue // the way to the new URL, which delta shows
		}
		reqs = append(reqs, feedback.Request{Method: e.Method, URL: e.URL, Type: e.Type, Status: e.Status, Failed: e.Failed, Blocked: e.Blocked})
		if failed == nil && requestFailed(e, url) && (e.Type == "Document" || !navActs[o.act]) {
			failed = &e
		}
	}
	fb.Errors = feedback.Errors(msgs)
	fb.Net = feedback.NetList(reqs, origin)
	// The document that loaded fine is the new URL already shown in delta.
	if n := len(fb.Net); n > 0 && delta.URL != "" && fb.Net[n-1].S == 200 && fb.Net[n-1].U == feedback.RelURL(url, origin) {
		fb.Net = fb.Net[:n-1]
	}
	for _, np := range p.bc.PagesSince(o.pages) {
		line := np.ID + " " + np.URL()
		if why := np.blocked.latest(); why != "" {
			line = np.ID + " blocked: " + why
		}
		fb.Opened = append(fb.Opened, line)
	}
	if d := p.Dialog(); d != nil {
		fb.Dialog = &feedback.Dialog{Type: d.Type, Msg: feedback.Truncate(d.Message, 160)}
		if !o.dialogBefore {
			fb.Hint = "a " + d.Type + " dialog opened; answer it with handleDialog before anything else"
		}
	}
	if refused != nil && (err == nil || CodeOf(err) == CodeNetworkError) {
		err = &Error{Code: CodePermission, Msg: "blocked: " + refused.Blocked,
			Hint: "this server only lets the browser reach the allowed origins; stay on them"}
	}
	if err == nil && !watchActs[o.act] {
		err = o.outcome(exception, failed, origin)
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

// outcome classifies a completed action by what it caused: a form the browser's
// validation refused, an uncaught exception, or a failed request.
func (o *observation) outcome(exception string, failed *NetworkEntry, origin string) error {
	if len(o.dom.Invalid) > 0 && o.p.navMark().docs == o.nav.docs {
		v := o.dom.Invalid[0]
		return &Error{Code: CodeValidation,
			Msg:  fmt.Sprintf("the form was not submitted: %s[:]%s: %s", v[0], v[1], v[2]),
			Hint: fmt.Sprintf("fill %s as it asks, then submit again", v[0])}
	}
	if exception != "" {
		return &Error{Code: CodeJSError, Msg: "the page threw during the action: " + feedback.Truncate(firstLine(exception), 160),
			Hint: "the action reached the page but its script failed; check console, or try another way"}
	}
	if failed != nil {
		what := failed.Failed
		if what == "" {
			what = fmt.Sprint(failed.Status)
		}
		hint := "the server refused or failed; check the inputs, or network for details"
		if failed.Type == "Document" {
			hint = "check the URL; the page shown is the error page"
		}
		return &Error{Code: CodeNetworkError, Msg: fmt.Sprintf("%s %s failed: %s", failed.Method, feedback.RelURL(failed.URL, origin), what), Hint: hint}
	}
	return nil
}

// blockedByClient is how Chromium reports a request the guard refused.
const blockedByClient = "net::ERR_BLOCKED_BY_CLIENT"

// requestFailed reports requests an action's success depends on: the page's
// document, or an API call, answered with an error or not at all.
func requestFailed(e NetworkEntry, pageURL string) bool {
	if e.Failed == "net::ERR_ABORTED" || e.Failed == "canceled" || strings.HasPrefix(e.Failed, blockedByClient) {
		return false // superseded or cancelled by the page itself
	}
	bad := e.Failed != "" || e.Status >= 400
	switch e.Type {
	case "Document":
		return bad && (e.ID == e.Loader || e.URL == pageURL)
	case "XHR", "Fetch":
		return bad
	}
	return false
}

func (o *observation) delta() *feedback.Delta {
	d := &feedback.Delta{Text: o.dom.Text, Removed: o.dom.Removed, Added: o.dom.Added, More: o.dom.More}
	for _, a := range o.dom.Attrs {
		d.Attrs = append(d.Attrs, [3]any{a[0], a[1], a[2]})
	}
	return d
}

// redirectHop is a document request answered with a redirect: a step of the
// navigation whose end the feedback shows as the new URL. A navigate keeps it:
// there it says why the page is not at the URL asked for.
func redirectHop(e NetworkEntry) bool {
	return e.Type == "Document" && e.Status >= 300 && e.Status < 400 && e.Failed == "" && e.Blocked == ""
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// describeError classifies an action's failure for feedback: as Explain does,
// and anything else as the page's doing.
func describeError(err error) (code Code, msg, hint string) {
	if code, msg, hint, ok := Explain(err); ok {
		return code, msg, hint
	}
	return CodeJSError, err.Error(), "take a snapshot to see the page's state"
}
