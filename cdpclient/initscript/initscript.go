// Package initscript runs the user's scripts (--init-script) in every
// document of every page before the page's own scripts: tabs, popups and
// frames, out-of-process ones included, in each browser context cdpmcp sets
// up. A script runs in the page's own world, as the page's first script, so
// it can stand in for an API, set a flag or record what the page does.
//
// It is a feature on the core: it imports cdpclient's exported API and the
// context door (ContextHook.SessionSetup); cdpclient never imports it.
package initscript

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/page"
)

// Setup is the set-up of every browser context (cdpclient.Options.
// SetupContext) that adds sources to each document session the context
// attaches from now on, before the target runs (a new tab, a popup, an
// out-of-process frame), and to the sessions of the pages it has already
// (an attached browser's tabs, the first tab), for their next documents.
func Setup(sources []string) func(ctx context.Context, bc *cdpclient.BrowserContext) error {
	return func(ctx context.Context, bc *cdpclient.BrowserContext) error {
		if len(sources) == 0 {
			return nil
		}
		bc.Door().Hook(cdpclient.ContextHook{SessionSetup: func(ctx context.Context, c *cdp.Client) []func() error {
			calls := make([]func() error, len(sources))
			for i, src := range sources {
				calls[i] = func() error { return add(ctx, c, src) }
			}
			return calls
		}})
		for _, p := range bc.Pages() {
			for _, s := range p.Door().Sessions() {
				for _, src := range sources {
					if err := add(ctx, s.Client(), src); err != nil {
						slog.Debug("--init-script on an open tab", "page", p.ID, "err", err)
					}
				}
			}
		}
		return nil
	}
}

// add registers one script on a session, in the page's main world.
func add(ctx context.Context, c *cdp.Client, src string) error {
	if _, err := c.Page.AddScriptToEvaluateOnNewDocument(ctx, page.NewAddScriptToEvaluateOnNewDocumentArgs(src)); err != nil {
		return fmt.Errorf("--init-script: %w", err)
	}
	return nil
}
