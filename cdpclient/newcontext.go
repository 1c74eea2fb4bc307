package cdpclient

import (
	"context"
	"fmt"

	"github.com/mafredri/cdp/protocol/target"
)

// NewContext creates an isolated browser context (own cookies, storage and pages).
func (b *Browser) NewContext(ctx context.Context) (*BrowserContext, error) {
	args := target.NewCreateBrowserContextArgs().SetDisposeOnDetach(true)
	if server, bypass := b.egress.ContextProxy(); server != "" {
		args.SetProxyServer(server).SetProxyBypassList(bypass)
	} else if proxy := b.opts.Launch.Proxy; proxy != nil {
		// The user's proxy (--proxy-server): an attached browser's own
		// flags cannot be changed, its new contexts can.
		args.SetProxyServer(proxy.Server)
		if proxy.Bypass != "" {
			args.SetProxyBypassList(proxy.Bypass)
		}
	}
	r, err := b.client.Target.CreateBrowserContext(ctx, args)
	if err != nil {
		return nil, fmt.Errorf("Target.createBrowserContext: %w", err)
	}
	bc := newBrowserContext(b, string(r.BrowserContextID), true)
	if err := b.setUp(ctx, bc); err != nil {
		_ = b.client.Target.DisposeBrowserContext(ctx, target.NewDisposeBrowserContextArgs(r.BrowserContextID))
		return nil, err
	}
	b.mu.Lock()
	b.contexts[bc.id] = bc
	b.mu.Unlock()
	if b.opts.SetupContext != nil {
		if err := b.opts.SetupContext(ctx, bc); err != nil {
			_ = bc.Close(ctx)
			return nil, err
		}
	}
	return bc, nil
}

func (b *Browser) contextFor(info target.Info) *BrowserContext {
	if info.BrowserContextID != nil {
		if bc := b.contexts[string(*info.BrowserContextID)]; bc != nil {
			return bc
		}
	}
	return b.def
}
