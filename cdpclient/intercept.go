package cdpclient

import (
	"context"
	"fmt"

	"github.com/mafredri/cdp"
)

// Interception: the origin guard (cdpclient/fetchguard) pauses every request of every
// document session while origin rules are set, and a feature that answers
// requests (routes, in cdpclient/network) rides on the same interception:
// one Fetch.enable for every request, never a narrower second one, and the
// origin rules are checked first, so a feature cannot reach what the rules
// refuse. Without origin rules, interception is on only while a feature
// asks for it on the context (ContextDoor.Intercept).

// Intercept turns the pausing of every request on (or off) for the
// context's tabs, now and for the document sessions it attaches later; with
// origin rules or proxy credentials it is always on and stays so. Paused requests the rules let
// through go to the ContextHook.Paused answers.
func (d ContextDoor) Intercept(ctx context.Context, on bool) error {
	bc := d.bc
	bc.hooks.mu.Lock()
	bc.hooks.intercept = on
	bc.hooks.mu.Unlock()
	if bc.b.guard.Always() {
		return nil
	}
	for _, p := range bc.Pages() {
		for _, c := range p.documentSessions() {
			var err error
			if on {
				err = bc.b.guard.Intercept(ctx, c)
			} else {
				err = c.Fetch.Disable(ctx)
			}
			if err != nil {
				return fmt.Errorf("request interception: %w", err)
			}
		}
	}
	return nil
}

// interceptSetup is the call that turns interception on for a new document
// session of a context a feature intercepts for (the guard does it when
// origin rules are set); nil otherwise.
func (bc *BrowserContext) interceptSetup(ctx context.Context, c *cdp.Client) []func() error {
	bc.hooks.mu.Lock()
	on := bc.hooks.intercept
	bc.hooks.mu.Unlock()
	if bc.b.guard.Always() || !on {
		return nil
	}
	return []func() error{func() error { return bc.b.guard.Intercept(ctx, c) }}
}

// answerPaused gives a paused request the origin rules let through to the
// features' answers, in order; it reports false when none answered.
func (bc *BrowserContext) answerPaused(ctx context.Context, c *cdp.Client, r *PausedRequest) (bool, error) {
	bc.hooks.mu.Lock()
	answers := append([]func(context.Context, *cdp.Client, *PausedRequest) (bool, error)(nil), bc.hooks.paused...)
	bc.hooks.mu.Unlock()
	for _, answer := range answers {
		if done, err := answer(ctx, c, r); done || err != nil {
			return done, err
		}
	}
	return false, nil
}
