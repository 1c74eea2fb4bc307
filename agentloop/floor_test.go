package agentloop

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/floorbench/floorsteps"
	"github.com/mafredri/cdp"
)

// readingFloor does what each of readingRun's model answers asks of the
// browser, over raw CDP (floorsteps) on a fresh tab: open the page, then
// the seven wheel scrolls, each followed by what the next request needs, the
// page's text and elements read and, with vision, its picture taken (the
// two at once, as the browser allows). Each step starts think after the
// last, as the model's answer does. It returns each step's time: the floor
// of between-ms, what no server can take less than on this browser.
func readingFloor(t testing.TB, page string, vision bool, think time.Duration) []time.Duration {
	t.Helper()
	env := newEnv(t)
	ctx := testCtx(t)
	p, err := env.Page(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	var steps []time.Duration
	next := func(ctx context.Context, c *cdp.Client) error {
		pic := make(chan error, 1)
		if vision {
			go func() { _, err := floorsteps.Picture(ctx, c, screenshotQuality); pic <- err }()
		} else {
			pic <- nil
		}
		_, err := floorsteps.Read(ctx, c, "script")
		return errors.Join(err, <-pic)
	}
	err = floorsteps.OnPage(ctx, p, func(ctx context.Context, c *cdp.Client) error {
		start := time.Now()
		if err := floorsteps.Navigate(ctx, c, site.URL(page)); err != nil {
			return err
		}
		if err := next(ctx, c); err != nil {
			return err
		}
		steps = append(steps, time.Since(start))
		for i := 2; i <= 8; i++ {
			dy := 600.0
			if i%3 == 0 {
				dy = -600
			}
			time.Sleep(think)
			start := time.Now()
			if _, err := floorsteps.Wheel(ctx, c, dy); err != nil {
				return err
			}
			if err := next(ctx, c); err != nil {
				return err
			}
			steps = append(steps, time.Since(start))
		}
		return nil
	})
	if err != nil {
		t.Fatalf("the floor of %s: %v", page, err)
	}
	return steps
}
