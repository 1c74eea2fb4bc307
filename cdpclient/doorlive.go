package cdpclient

import (
	"context"
	"fmt"

	"github.com/mafredri/cdp"
)

// What the door gives a feature that runs beside the page's actions rather
// than as one (cdpclient/live: a person's input, a screencast, the masking of
// a recording's frames): none of these takes the action lock.

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
