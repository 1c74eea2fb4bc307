package live

import (
	"context"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/emulation"
)

// ownSize is the tab's viewport before SetViewport, zero when not
// overridden, in the tab's slot (ownSizeOf).
type ownSize struct {
	mu   sync.Mutex
	size [2]float64
}

// ownSizeKey is the key of a tab's ownSize in its slot.
type ownSizeKey struct{}

func ownSizeOf(d cdpclient.Door) *ownSize {
	return d.Slot(ownSizeKey{}, func() any { return &ownSize{} }).(*ownSize)
}

// SetViewport makes the tab's viewport width × height CSS pixels drawn at
// scale device pixels each (the screen of whoever watches it). mobile lays
// pages out as a phone does (the page's meta viewport) and turns on touch
// events. ResetViewport undoes it.
func SetViewport(ctx context.Context, p *cdpclient.Page, width, height int, scale float64, mobile bool) error {
	d := p.Door()
	own := ownSizeOf(d)
	return remote(ctx, p, "set the viewport", func(ctx context.Context, c *cdp.Client) error {
		own.mu.Lock()
		known := own.size != [2]float64{}
		own.mu.Unlock()
		if !known { // the tab's own size, which ResetViewport waits for
			w, h, err := d.Frames().Viewport(ctx)
			if err != nil {
				return err
			}
			own.mu.Lock()
			own.size = [2]float64{w, h}
			own.mu.Unlock()
		}
		args := emulation.NewSetDeviceMetricsOverrideArgs(width, height, scale, mobile)
		if err := c.Emulation.SetDeviceMetricsOverride(ctx, args); err != nil {
			return err
		}
		return c.Emulation.SetTouchEmulationEnabled(ctx, emulation.NewSetTouchEmulationEnabledArgs(mobile).SetMaxTouchPoints(5))
	})
}

// ResetViewport gives the tab back the viewport of its window.
func ResetViewport(ctx context.Context, p *cdpclient.Page) error {
	d := p.Door()
	ownNow := ownSizeOf(d)
	return remote(ctx, p, "reset the viewport", func(ctx context.Context, c *cdp.Client) error {
		if err := c.Emulation.ClearDeviceMetricsOverride(ctx); err != nil {
			return err
		}
		if err := c.Emulation.SetTouchEmulationEnabled(ctx, emulation.NewSetTouchEmulationEnabledArgs(false)); err != nil {
			return err
		}
		// The renderer takes its own size back a frame or two later: wait
		// for it (briefly), so that what reads the page next sees that size.
		ownNow.mu.Lock()
		own := ownNow.size
		ownNow.size = [2]float64{}
		ownNow.mu.Unlock()
		for deadline := time.Now().Add(time.Second); own != [2]float64{} && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if w, h, err := d.Frames().Viewport(ctx); err != nil || [2]float64{w, h} == own {
				break
			}
		}
		return nil
	})
}
