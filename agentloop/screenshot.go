package agentloop

import (
	"context"
	"errors"
	"log/slog"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/capture"
	"github.com/cdpmcp/cdpmcp/cdpclient/pagemodel"
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

// look reads the page's element list and then takes its picture, the
// viewport with every element's index drawn on it (seed 000 §3.1 VISUAL
// CONTEXT), under one hold of the page: no action runs between the two, so
// the picture shows the page the list describes, and the walk that read
// the list measured the boxes drawn. It returns once the list is read; the
// picture is taken while the prompt is built and the model thinks, and the
// step's actions wait for it (the record waits for it; with vision, the
// step). ctx bounds both: the picture has a bound of its own, since the
// step may end before it is taken.
func (r *runner) look(ctx context.Context, p *cdpclient.Page) (string, *shot, error) {
	s := &shot{ch: make(chan *Image, 1)}
	type read struct {
		text string
		err  error
	}
	list := make(chan read, 1)
	go func() {
		ctx, cancel := context.WithTimeout(ctx, observeTimeout)
		defer cancel()
		listed := false
		opts := capture.ScreenshotOptions{Format: "jpeg", Quality: screenshotQuality, Annotate: true,
			Before: func(ctx context.Context) ([]pagemodel.Box, error) {
				text, boxes, err := pagemodel.SnapshotBoxes(ctx, p, pagemodel.Options{})
				list <- read{text, err}
				listed = true
				return boxes, err
			}}
		data, mime, err := capture.Screenshot(ctx, p, opts)
		if !listed {
			// Refused before it held the page (a dialog is open): the
			// snapshot says why.
			text, err := pagemodel.Snapshot(ctx, p, pagemodel.Options{})
			list <- read{text, err}
		}
		if err != nil {
			if ctx.Err() == nil && !errors.As(err, new(*cdpclient.DialogOpenError)) {
				slog.Debug("agent step screenshot", "err", err)
			}
			s.ch <- nil
			return
		}
		s.ch <- &Image{Data: data, MIME: mime}
	}()
	l := <-list
	return l.text, s, l.err
}

// wait returns the screenshot once it is taken; later calls return it again.
func (s *shot) wait() *Image {
	if !s.got {
		s.img, s.got = <-s.ch, true
	}
	return s.img
}
