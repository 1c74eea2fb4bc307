package cdpclient

import (
	"context"
	"fmt"

	"github.com/mafredri/cdp"
)

// What the door gives a feature that runs beside the page's actions rather
// than as one (cdpclient/live: a person's input, a screencast, the masking of
// a recording's frames): none of these takes the action lock.

// Input runs one call of a person's remote input (what names it in an
// error): on a usable tab, brought to the front (keys go to the focused
// tab), ended early when a dialog opens or the tab closes or crashes. c is
// the page session's client.
func (d Door) Input(ctx context.Context, what string, call func(ctx context.Context, c *cdp.Client) error) error {
	p := d.p
	if err := p.usable(); err != nil {
		return err
	}
	ctx, cancel := p.guard(ctx)
	defer cancel()
	if err := p.toFront(ctx); err != nil {
		return cause(ctx, err)
	}
	if err := call(ctx, p.c); err != nil {
		return cause(ctx, fmt.Errorf("%s: %w", what, err))
	}
	return nil
}

// Guarded runs fn on a usable tab, ended early when a dialog opens or the
// tab closes or crashes: a read beside the actions (where the secret fields
// are drawn), which may use Door.World.
func (d Door) Guarded(ctx context.Context, fn func(ctx context.Context) error) error {
	if err := d.p.usable(); err != nil {
		return err
	}
	ctx, cancel := d.p.guard(ctx)
	defer cancel()
	return cause(ctx, fn(ctx))
}

// ViewportSize is the tab's viewport in CSS pixels.
func (d Door) ViewportSize(ctx context.Context) (w, h float64, err error) {
	m, err := d.p.c.Page.GetLayoutMetrics(ctx)
	if err != nil {
		return 0, 0, fmt.Errorf("layout metrics: %w", err)
	}
	return float64(m.CSSLayoutViewport.ClientWidth), float64(m.CSSLayoutViewport.ClientHeight), nil
}

// Usable is nil while the page can be used, else why not (closed, crashed).
func (d Door) Usable() error { return d.p.usable() }

// Client is the page session's protocol client, for the calls of a stream
// that runs beside the page's actions and needs none of their rules: a
// screencast's start, stop and frame acknowledgements.
func (d Door) Client() *cdp.Client { return d.p.c }
