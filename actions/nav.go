package actions

import (
	"context"
	"errors"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/network"
)

const navTimeout = 30 * time.Second

// pageSetupTimeout bounds what a navigation waits for before its own deadline
// starts: the browser's launch (at most 30 s) and a new tab's set-up (at most
// 30 s) on a session's first call.
const pageSetupTimeout = time.Minute

// navArgs are the arguments every navigation takes.
type navArgs struct {
	Page      string `json:"page"`
	WaitUntil string `json:"waitUntil" enum:"load,domcontentloaded,networkidle,commit" desc:"default load"`
	TimeoutMs int    `json:"timeoutMs" desc:"ms, default --timeout (30000)"`
}

type navigateArgs struct {
	URL string `json:"url" required:"true" desc:"absolute URL, e.g. https://example.com"`
	navArgs
}

// Navigate opens a URL in a page.
var Navigate = define("navigate", "Open a URL and wait for it to load.",
	ClassNavigate, Hints{OpenWorld: true, Idempotent: true},
	func(ctx context.Context, env *Env, a navigateArgs) (*Result, error) {
		if err := require("url", a.URL, `{"url":"https://example.com"}`); err != nil {
			return nil, err
		}
		if res, err := env.checkNavURL("navigate", a.URL); res != nil || err != nil {
			return res, err
		}
		return env.navAct(ctx, a.navArgs, "navigate", func(ctx context.Context, p *cdpclient.Page) (*feedback.Feedback, error) {
			return p.Navigate(ctx, a.URL, cdpclient.WaitUntil(a.WaitUntil))
		})
	}).ownTimeout()

type reloadArgs struct {
	Page        string `json:"page"`
	IgnoreCache bool   `json:"ignoreCache" desc:"bypass the cache"`
	WaitUntil   string `json:"waitUntil" enum:"load,domcontentloaded,networkidle,commit" desc:"default load"`
	TimeoutMs   int    `json:"timeoutMs" desc:"ms, default --timeout (30000)"`
}

// Reload reloads a page.
var Reload = define("reload", "Reload the page.",
	ClassNavigate, Hints{OpenWorld: true, Idempotent: true},
	func(ctx context.Context, env *Env, a reloadArgs) (*Result, error) {
		n := navArgs{Page: a.Page, WaitUntil: a.WaitUntil, TimeoutMs: a.TimeoutMs}
		return env.navAct(ctx, n, "reload", func(ctx context.Context, p *cdpclient.Page) (*feedback.Feedback, error) {
			if res := env.refuseRepost(ctx, p, 0, "reload"); res != nil {
				return res.Feedback, nil
			}
			return p.Reload(ctx, a.IgnoreCache, cdpclient.WaitUntil(a.WaitUntil))
		})
	}).ownTimeout()

// historyArgs are the arguments of a step in the tab's history: it waits for
// the load, as a navigation does by default.
type historyArgs struct {
	Page      string `json:"page"`
	TimeoutMs int    `json:"timeoutMs" desc:"ms, default --timeout (30000)"`
}

func (a historyArgs) nav() navArgs { return navArgs{Page: a.Page, TimeoutMs: a.TimeoutMs} }

// GoBack goes back in a page's history.
var GoBack = define("goBack", "Go back in the tab's history.",
	ClassNavigate, Hints{OpenWorld: true},
	func(ctx context.Context, env *Env, a historyArgs) (*Result, error) {
		return env.navAct(ctx, a.nav(), "goBack", func(ctx context.Context, p *cdpclient.Page) (*feedback.Feedback, error) {
			if res := env.refuseRepost(ctx, p, -1, "goBack"); res != nil {
				return res.Feedback, nil
			}
			return p.GoBack(ctx, cdpclient.WaitLoad)
		})
	}).ownTimeout()

// GoForward goes forward in a page's history.
var GoForward = define("goForward", "Go forward in the tab's history.",
	ClassNavigate, Hints{OpenWorld: true},
	func(ctx context.Context, env *Env, a historyArgs) (*Result, error) {
		return env.navAct(ctx, a.nav(), "goForward", func(ctx context.Context, p *cdpclient.Page) (*feedback.Feedback, error) {
			if res := env.refuseRepost(ctx, p, +1, "goForward"); res != nil {
				return res.Feedback, nil
			}
			return p.GoForward(ctx, cdpclient.WaitLoad)
		})
	}).ownTimeout()

// navAct runs a page-level navigation as an action under the caller's deadline
// (timeoutMs, default the server's NavTimeout, else navTimeout). The deadline
// is the navigation's: it starts once the tab is in hand. Launching the
// browser and setting up the session's first tab, on a first call, have
// bounds of their own (pageSetupTimeout); on a loaded machine they took most
// of a 30 s deadline, and the page was blamed for being slow.
func (e *Env) navAct(ctx context.Context, a navArgs, name string, fn func(context.Context, *cdpclient.Page) (*feedback.Feedback, error)) (*Result, error) {
	def := navTimeout
	if e.NavTimeout > 0 {
		def = e.NavTimeout
	}
	if a.TimeoutMs < 0 { // refused before the browser is touched
		_, _, err := deadline(ctx, a.TimeoutMs, def)
		return nil, err
	}
	pctx, cancelPage := context.WithTimeout(ctx, pageSetupTimeout)
	p, err := e.Page(pctx, a.Page)
	cancelPage()
	if err != nil {
		return nil, err
	}
	ctx, cancel, err := deadline(ctx, a.TimeoutMs, def)
	if err != nil {
		return nil, err
	}
	defer cancel()
	return actOn(ctx, p, name, fn)
}

// refuseRepost refuses, in read-only mode, a reload or history step that would
// load a page the tab got by posting a form: the browser would post it again.
func (e *Env) refuseRepost(ctx context.Context, p *cdpclient.Page, delta int, act string) *Result {
	if !e.ReadOnly {
		return nil
	}
	posted, err := network.PostedEntry(ctx, p, delta)
	if err != nil {
		return permission(act, "read-only mode refused: the tab's history could not be read to tell whether that page came from a form post ("+err.Error()+")",
			"navigate to the page's address instead (a plain GET)")
	}
	if !posted {
		return nil
	}
	return permission(act, "read-only mode refused: that page came from a form post, and loading it again would send the form again",
		"navigate to the page's address instead (a plain GET)")
}

// checkNavURL looks at a URL a client wants opened (cdpclient.CheckNavigation):
// a malformed one (no scheme, no host) is an argument error; one the policy
// refuses (local files, browser pages, origins outside --allowed-origins,
// script URLs in read-only mode) is a PERMISSION feedback result, without
// touching the browser.
func (e *Env) checkNavURL(act, raw string) (*Result, error) {
	err := cdpclient.CheckNavigation(e.Origins, raw, e.ReadOnly)
	var pe *cdpclient.Error
	if errors.As(err, &pe) && pe.Code == cdpclient.CodePermission {
		return permission(act, pe.Msg, pe.Hint), nil
	}
	return nil, err
}
