package state

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/protocol/runtime"
)

// storageSeed is the localStorage a context still has to put into the first
// document of each origin, and the scripts that do it, by session. It lives
// in the context's slot (seedOf).
type storageSeed struct {
	bc      *cdpclient.BrowserContext
	hooked  sync.Once // the set-up calls and the binding are registered
	mu      sync.Mutex
	origins map[string][][2]string
	scripts map[*cdp.Client]page.ScriptIdentifier
}

// seedKey is the key of a context's storageSeed in its slot.
type seedKey struct{}

// seedBinding is the binding the seeding script calls, in cdpmcp's world.
const seedBinding = "__cdpmcpSeeded"

// seedOf is the context's seed, hooked into the set-up of its new document
// sessions and into its bindings on first use.
func seedOf(bc *cdpclient.BrowserContext) *storageSeed {
	d := bc.Door()
	s := d.Slot(seedKey{}, func() any { return &storageSeed{bc: bc} }).(*storageSeed)
	s.hooked.Do(func() {
		d.Hook(cdpclient.ContextHook{SessionSetup: s.calls, Binding: seedBinding, OnBinding: s.onSeeded})
	})
	return s
}

// calls are the calls that register the seeding script on a new document
// session (ContextHook.SessionSetup), when the context has origins to seed:
// one request each, so they reach a paused target before it runs.
func (s *storageSeed) calls(ctx context.Context, c *cdp.Client) []func() error {
	s.mu.Lock()
	origins, _ := json.Marshal(s.origins)
	empty := len(s.origins) == 0
	s.mu.Unlock()
	if empty {
		return nil
	}
	return []func() error{
		func() error { return addSeedBinding(ctx, c) },
		func() error { return s.addScript(ctx, c, origins) },
	}
}

// addSeedBinding adds the binding the seeding script calls to a session.
func addSeedBinding(ctx context.Context, c *cdp.Client) error {
	return c.Runtime.AddBinding(ctx, runtime.NewAddBindingArgs(seedBinding).SetExecutionContextName(cdpclient.WorldName))
}

// addScript registers the seeding script for origins (their items, as JSON)
// on a session, and records it.
func (s *storageSeed) addScript(ctx context.Context, c *cdp.Client, origins []byte) error {
	src := fmt.Sprintf("(%s)(%s, %q)", jsFuncs.Func("seedStorage"), origins, seedBinding)
	r, err := c.Page.AddScriptToEvaluateOnNewDocument(ctx, page.NewAddScriptToEvaluateOnNewDocumentArgs(src).SetWorldName(cdpclient.WorldName))
	if err != nil {
		return fmt.Errorf("seed script: %w", err)
	}
	s.mu.Lock()
	if s.scripts == nil {
		s.scripts = map[*cdp.Client]page.ScriptIdentifier{}
	}
	s.scripts[c] = r.Identifier
	s.mu.Unlock()
	return nil
}

// session (re)registers the seeding script, with the origins still to seed,
// on one session; with none left it removes it.
func (s *storageSeed) session(ctx context.Context, c *cdp.Client) error {
	s.mu.Lock()
	old, had := s.scripts[c]
	origins, _ := json.Marshal(s.origins)
	left := len(s.origins)
	s.mu.Unlock()
	if had {
		_ = c.Page.RemoveScriptToEvaluateOnNewDocument(ctx, page.NewRemoveScriptToEvaluateOnNewDocumentArgs(old))
	}
	if left == 0 {
		s.mu.Lock()
		delete(s.scripts, c)
		s.mu.Unlock()
		return nil
	}
	if !had {
		if err := addSeedBinding(ctx, c); err != nil {
			return fmt.Errorf("seed binding: %w", err)
		}
	}
	return s.addScript(ctx, c, origins)
}

// reseed brings the seeding script of every document session of the context
// up to date.
func (s *storageSeed) reseed(ctx context.Context) {
	for _, p := range s.bc.Pages() {
		for _, h := range p.Door().Sessions() {
			if err := s.session(ctx, h.Client()); err != nil {
				slog.Debug("storage state script", "page", p.ID, "err", err)
			}
		}
	}
}

// onSeeded learns (a call of the binding, on the read goroutine) that an
// origin got its localStorage, so later documents of it are left alone.
func (s *storageSeed) onSeeded(origin string) {
	s.mu.Lock()
	_, pending := s.origins[origin]
	delete(s.origins, origin)
	s.mu.Unlock()
	if !pending {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), cdpclient.CallTimeout)
		defer cancel()
		s.reseed(ctx)
	}()
}
