package agentloop

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/capture"
	"github.com/cdpmcp/cdpmcp/cdpclient/pagemodel"
)

// screenshotQuality is the JPEG quality of step screenshots: labels stay
// legible at a fraction of PNG's size.
const screenshotQuality = 70

// shot is a screenshot being taken; wait returns it (nil when it failed).
type shot struct {
	ch  chan *picture
	pic *picture
	got bool
}

// picture is a step's screenshot. With vision the numbered boxes are drawn
// on it, for the model; without, marks holds them and the report draws them
// over it: the step saves the drawing.
type picture struct {
	img   *Image
	marks []capture.Mark
}

// pace is what the last step's model and picture took: whether a step's
// picture is asked for before its walk (captureFirst).
type pace struct {
	model   atomic.Int64 // the last answer's wait, a time.Duration
	capture atomic.Int64 // the last picture's, without the walk
}

// captureFirst says whether the step's picture is asked for first, the
// walk running beside it (capture.ScreenshotOptions.Beside), rather than
// after the walk. With vision it always is: the model waits for both.
// Without, the list goes to the model first and the picture is taken while
// it thinks, unless the model answered the last step sooner than the last
// picture took: then the step's actions would wait for the picture (the
// record needs it), and starting it first shortens that wait by the walk.
func (r *runner) captureFirst() bool {
	model := r.pace.model.Load()
	return r.cfg.Vision || (model > 0 && model < r.pace.capture.Load())
}

// look reads the page's element list and takes its picture, the viewport
// with every element's index drawn on it (seed 000 §3.1 VISUAL CONTEXT),
// under one hold of the page: no action runs between the two, so the
// picture shows the page the list describes, and the walk that read the
// list measured the boxes drawn. It returns once the list is read.
// Without vision the picture is not drawn on (the record keeps the marks)
// and the step's actions wait for it (the record needs it); it is asked
// for first or after the walk as captureFirst says. ctx bounds both: the
// picture has a bound of its own, since the step may end before it is
// taken.
func (r *runner) look(ctx context.Context, p *cdpclient.Page) (string, *shot, error) {
	s := &shot{ch: make(chan *picture, 1)}
	type read struct {
		text string
		err  error
	}
	list := make(chan read, 1)
	go func() {
		ctx, cancel := context.WithTimeout(ctx, observeTimeout)
		defer cancel()
		listed := false
		first := r.captureFirst()
		start := time.Now()
		walk := func(ctx context.Context) ([]pagemodel.Box, error) {
			text, boxes, err := pagemodel.SnapshotBoxes(ctx, p, pagemodel.Options{})
			list <- read{text, err}
			listed = true
			if !first {
				start = time.Now() // the picture is asked for now
			}
			return boxes, err
		}
		opts := capture.ScreenshotOptions{Format: "jpeg", Quality: screenshotQuality, Before: walk}
		if first {
			opts.Before, opts.Beside = nil, walk
		}
		pic, err := r.shoot(ctx, p, opts)
		if err == nil {
			r.pace.capture.Store(int64(time.Since(start)))
		}
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
		s.ch <- pic
	}()
	l := <-list
	return l.text, s, l.err
}

// shoot takes the step's picture: drawn on with vision, marked without.
func (r *runner) shoot(ctx context.Context, p *cdpclient.Page, opts capture.ScreenshotOptions) (*picture, error) {
	if r.cfg.Vision {
		opts.Annotate = true
		data, mime, err := capture.Screenshot(ctx, p, opts)
		if err != nil {
			return nil, err
		}
		return &picture{img: &Image{Data: data, MIME: mime}}, nil
	}
	pic, err := capture.ScreenshotMarked(ctx, p, opts)
	if err != nil {
		return nil, err
	}
	return &picture{img: &Image{Data: pic.Data, MIME: pic.MIME}, marks: pic.Marks}, nil
}

// wait returns the screenshot once it is taken (nil if it failed or s is
// nil); later calls return it again.
func (s *shot) wait() *picture {
	if s == nil {
		return nil
	}
	if !s.got {
		s.pic, s.got = <-s.ch, true
	}
	return s.pic
}

// image is the picture's image, nil if there is none.
func (p *picture) image() *Image {
	if p == nil {
		return nil
	}
	return p.img
}
