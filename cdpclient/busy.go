package cdpclient

import (
	"context"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/busy"
	"github.com/mafredri/cdp/protocol/runtime"
)

// The busy watchdog (cdpclient/busy) judges whether a page is stuck in a
// script; these are the calls it makes to the browser for a page.
type busyProbe struct{ p *Page }

// Answer evaluates "1" in the page's main world.
func (b busyProbe) Answer(ctx context.Context) error {
	_, err := b.p.c.Runtime.Evaluate(ctx, runtime.NewEvaluateArgs("1").SetSilent(true))
	return err
}

// BrowserAnswer asks the browser process its version.
func (b busyProbe) BrowserAnswer(ctx context.Context) error {
	br := b.p.bc.b
	if br == nil || br.client == nil {
		return nil
	}
	_, err := br.client.Browser.GetVersion(ctx)
	return err
}

func (b busyProbe) DialogOpen() bool { return b.p.Dialog() != nil }

// pendingNavigation is the navigation whose server the tab waits for, or nil.
func (p *Page) pendingNavigation() *busy.Navigating {
	url, since, ok := busyProbe{p}.Navigating()
	if !ok {
		return nil
	}
	return &busy.Navigating{URL: url, Since: since}
}

// Navigating is the main frame's pending navigation (navstate.Pending) while
// its document's request has no response: once the server answered, a page
// that still does not answer is the renderer's doing.
func (b busyProbe) Navigating() (string, time.Time, bool) {
	nav, ok := b.p.hist.Pending()
	if !ok || nav.Loader != "" && b.p.logs.Answered(nav.Loader) {
		return "", time.Time{}, false
	}
	return nav.URL, nav.Since, true
}

func (b busyProbe) Terminate(ctx context.Context) error {
	return b.p.c.Runtime.TerminateExecution(ctx)
}

func (b busyProbe) Name() string { return b.p.ID }
