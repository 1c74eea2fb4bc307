package agentloop

import (
	"context"
	"errors"
	"log/slog"
	"sync"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/capture"
	"github.com/cdpmcp/cdpmcp/internal/spans"
)

// screenshotQuality is the JPEG quality of step screenshots: labels stay
// legible at a fraction of PNG's size.
const screenshotQuality = 70

// shot is a screenshot being taken; wait returns it (nil when it failed).
type shot struct {
	ch  chan *Image
	img *Image
	got bool
}

// screenshot starts capturing the viewport with every element's index drawn
// on it (seed 000 §3.1 VISUAL CONTEXT). Without vision it only feeds the
// record, so it runs while the model thinks and the step's actions: it
// returns once the capture holds the page, so the actions come after the
// picture, and the indexes are drawn on it beside them.
func (r *runner) screenshot(ctx context.Context, obs *observation, vision bool) *shot {
	s := &shot{ch: make(chan *Image, 1)}
	// Bounded on its own: the step may end before the record's picture is
	// taken, and the record waits for it.
	ctx, cancel := context.WithTimeout(ctx, observeTimeout)
	held := make(chan struct{})
	var once sync.Once
	hold := func() { once.Do(func() { close(held) }) }
	take := func() {
		defer cancel()
		defer hold() // a capture that failed before it held the page
		opts := capture.ScreenshotOptions{Format: "jpeg", Quality: screenshotQuality, Annotate: true, Held: hold}
		data, mime, err := capture.Screenshot(ctx, obs.page, opts)
		if err != nil && ctx.Err() == nil && !errors.As(err, new(*cdpclient.DialogOpenError)) {
			// If the boxes cannot be read (a frame going away mid-way), a
			// plain picture still shows the page.
			opts.Annotate = false
			data, mime, err = capture.Screenshot(ctx, obs.page, opts)
		}
		if err != nil {
			if ctx.Err() == nil {
				slog.Debug("agent step screenshot", "err", err)
			}
			s.ch <- nil
			return
		}
		s.ch <- &Image{Data: data, MIME: mime}
	}
	if vision {
		take()
	} else {
		go take()
		defer spans.Start(ctx, "screenshot held")()
		<-held
	}
	return s
}

// wait returns the screenshot once it is taken; later calls return it again.
func (s *shot) wait() *Image {
	if !s.got {
		s.img, s.got = <-s.ch, true
	}
	return s.img
}
