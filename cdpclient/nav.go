package cdpclient

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/navcheck"
	"github.com/mafredri/cdp/protocol/page"
)

// WaitUntil names the point of a page load that a navigation waits for.
type WaitUntil string

// Load states, as in Playwright.
const (
	WaitLoad             WaitUntil = "load"
	WaitDOMContentLoaded WaitUntil = "domcontentloaded"
	WaitNetworkIdle      WaitUntil = "networkidle"
	WaitCommit           WaitUntil = "commit"
)

func (w WaitUntil) lifecycleEvent() (string, error) {
	switch w {
	case "", WaitLoad:
		return "load", nil
	case WaitDOMContentLoaded:
		return "DOMContentLoaded", nil
	case WaitNetworkIdle:
		return "networkIdle", nil
	case WaitCommit:
		return "", nil
	}
	return "", ArgErrorf("use load, domcontentloaded, networkidle or commit", "waitUntil %q is not a load state", string(w))
}

// Navigate loads url in the page, waits until the load state is reached (a
// deadline given by ctx) and reports what arrived. A navigation that produced
// no document (DNS, refused connection, aborted) is a failure; a document that
// answered 4xx/5xx is not: the page shows it, and the feedback says its status.
func (p *Page) Navigate(ctx context.Context, rawURL string, until WaitUntil) (*feedback.Feedback, error) {
	event, err := until.lifecycleEvent()
	if err != nil {
		return nil, err
	}
	u, err := CheckURL(rawURL)
	if err != nil {
		return nil, err
	}
	return p.navigation(ctx, leavesDocument(rawURL, u), func(ctx context.Context) error { return p.navigate(ctx, rawURL, event) })
}

// leavesDocument says whether navigating to rawURL (u parsed) is sure to
// bring a new document: a URL without a fragment always does, the page's
// own URL too (it loads again). One with a fragment may only scroll the
// document (HTML's "navigate to a fragment": the same URL but for it, as the
// browser writes URLs, which Go's url package does not), and a javascript:
// URL runs in it: those keep the watch.
func leavesDocument(rawURL string, u *url.URL) bool {
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "file", "data", "about":
		return !strings.Contains(rawURL, "#")
	}
	return false
}

// navigation performs a page-level navigation as an action; newDocument says
// it is sure to bring a new document (action.newDocument).
func (p *Page) navigation(ctx context.Context, newDocument bool, run func(context.Context) error) (*feedback.Feedback, error) {
	return p.perform(ctx, action{kind: actNavigation, newDocument: newDocument, run: func(ctx context.Context, _ *Element) (string, error) {
		return "", run(ctx)
	}})
}

func (p *Page) navigate(ctx context.Context, rawURL, event string) error {
	mark := p.hist.Mark()
	r, err := p.c.Page.Navigate(ctx, page.NewNavigateArgs(rawURL))
	if err == nil && r.ErrorText != nil && *r.ErrorText == "net::ERR_ABORTED" && strings.HasPrefix(strings.ToLower(rawURL), "javascript:") {
		return nil // the script ran in the page, which stays (asked again, it would run twice)
	}
	if err == nil && r.ErrorText != nil && *r.ErrorText == "net::ERR_ABORTED" && p.abortedSeen(ctx) {
		return nil // the URL answered with a file (a download), the page stays
	}
	if err == nil && r.ErrorText != nil && *r.ErrorText == "net::ERR_ABORTED" {
		// A navigation the page started itself (a redirect, a refresh) can
		// cancel ours as it begins; ask once more.
		mark = p.hist.Mark()
		r, err = p.c.Page.Navigate(ctx, page.NewNavigateArgs(rawURL))
	}
	if err != nil {
		if ctx.Err() != nil && !isDialogErr(context.Cause(ctx)) {
			// Left to run, it would change the tab later, behind this
			// answer, and hold the page's next calls until it did (one
			// behind a "leave site?" prompt left open waits for its answer).
			sctx, cancel := context.WithTimeout(context.Background(), cdpCallTimeout)
			_ = p.c.Page.StopLoading(sctx)
			cancel()
		}
		if ctx.Err() == context.DeadlineExceeded {
			return &Error{Code: CodeTimeout, Err: err, Msg: fmt.Sprintf("%s did not answer in time: no page arrived (the navigation was stopped; the tab stays where it was)", rawURL),
				Hint: "the server may be slow or down: retry with a larger timeoutMs, or check the URL"}
		}
		return fmt.Errorf("navigate: %w", err)
	}
	if r.ErrorText != nil && *r.ErrorText != "" {
		return &Error{Code: CodeNetworkError, Msg: fmt.Sprintf("navigation to %s failed: %s", rawURL, *r.ErrorText),
			Hint: "check the URL and that the server is reachable"}
	}
	if r.LoaderID == nil {
		return p.stayedOrMoved(ctx, mark, rawURL) // a same-document navigation, if any
	}
	return p.waitLoaded(ctx, mark, event, false) // event "": the commit
}

// sameDocWait bounds the wait for a same-document navigation (a new
// fragment, history.pushState) to be reported once the browser said it
// needed no new document.
const sameDocWait = 2 * time.Second

// stayedOrMoved checks that a navigation the browser answered without a new
// document moved within the page; one that did not happen at all (a dialog
// or a script held the page) fails, never reads as done.
func (p *Page) stayedOrMoved(ctx context.Context, mark navMark, rawURL string) error {
	ctx, cancel := context.WithTimeout(ctx, sameDocWait)
	defer cancel()
	for {
		ch := p.changed.Watch()
		moved, at := p.hist.Moved(mark)
		if moved {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return &Error{Code: CodeNavigation, Msg: fmt.Sprintf("the page did not go to %s: it is still at %s", rawURL, at),
				Hint: "take a snapshot to see what holds it (a dialog, a busy script), then navigate again"}
		}
	}
}

// waitLoaded waits until a main-frame document started after mark has fired event
// (or, with sameDocOK, a same-document navigation happened). ctx bounds the wait.
func (p *Page) waitLoaded(ctx context.Context, mark navMark, event string, sameDocOK bool) error {
	for {
		ch := p.changed.Watch()
		if p.hist.Loaded(mark, event, sameDocOK) {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			if p.hist.Mark().Docs > mark.Docs && ctx.Err() == context.DeadlineExceeded {
				return &Incomplete{Err: ctx.Err(), Msg: fmt.Sprintf("the page arrived but had not reached %q in time", event),
					Hint: "it is still loading and may be usable already: take a snapshot, or waitFor what you need"}
			}
			return &Error{Code: CodeTimeout, Err: ctx.Err(),
				Msg:  fmt.Sprintf("the page did not reach %q in time", event),
				Hint: "the server may be slow: retry with a larger timeoutMs, or waitUntil=commit"}
		}
	}
}

// Reload reloads the page, waits for the load state and reports what arrived.
func (p *Page) Reload(ctx context.Context, ignoreCache bool, until WaitUntil) (*feedback.Feedback, error) {
	event, err := until.lifecycleEvent()
	if err != nil {
		return nil, err
	}
	return p.navigation(ctx, true, func(ctx context.Context) error {
		mark := p.hist.Mark()
		if err := p.c.Page.Reload(ctx, page.NewReloadArgs().SetIgnoreCache(ignoreCache)); err != nil {
			return fmt.Errorf("reload: %w", err)
		}
		return p.waitLoaded(ctx, mark, event, false)
	})
}

// GoBack goes one step back in the page's history and reports what arrived.
func (p *Page) GoBack(ctx context.Context, until WaitUntil) (*feedback.Feedback, error) {
	return p.history(ctx, -1, until)
}

// GoForward goes one step forward in the page's history and reports what arrived.
func (p *Page) GoForward(ctx context.Context, until WaitUntil) (*feedback.Feedback, error) {
	return p.history(ctx, +1, until)
}

func (p *Page) history(ctx context.Context, delta int, until WaitUntil) (*feedback.Feedback, error) {
	event, err := until.lifecycleEvent()
	if err != nil {
		return nil, err
	}
	return p.navigation(ctx, false, func(ctx context.Context) error { // an entry pushState made stays in the document
		h, err := p.c.Page.GetNavigationHistory(ctx)
		if err != nil {
			return fmt.Errorf("read history: %w", err)
		}
		i := h.CurrentIndex + delta
		if i < 0 || i >= len(h.Entries) {
			word := "back"
			if delta > 0 {
				word = "forward"
			}
			return newError(CodeNavigation, "use navigate to go to a URL", "there is no page to go %s to in this tab's history", word)
		}
		mark := p.hist.Mark()
		if err := p.c.Page.NavigateToHistoryEntry(ctx, page.NewNavigateToHistoryEntryArgs(h.Entries[i].ID)); err != nil {
			return fmt.Errorf("go to history entry: %w", err)
		}
		return p.waitLoaded(ctx, mark, event, true)
	})
}

// CheckURL checks that raw is a URL a tab can open (navcheck.URL).
func CheckURL(raw string) (*url.URL, error) { return navcheck.URL(raw) }
