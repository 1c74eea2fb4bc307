package cdpclient

import (
	"context"
	"fmt"
	"math"

	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/page"
)

// ScreenshotOptions say what to capture.
type ScreenshotOptions struct {
	FullPage bool
	Target   Target // capture just this element
	Format   string // png (default) or jpeg
	Quality  int    // jpeg quality 0-100; 0 means 80
	// Annotate draws each visible ref's number on its box, onto the image: the
	// page is not touched.
	Annotate bool
	// InPlace captures the target where it is, beyond the viewport if it is
	// there, without scrolling it into view (read-only mode: the page sees no
	// scroll and nothing comes into its view).
	InPlace bool
}

// Screenshot captures the viewport, the full page or one element and returns the
// encoded image and its MIME type.
func (p *Page) Screenshot(ctx context.Context, opts ScreenshotOptions) ([]byte, string, error) {
	format := opts.Format
	switch format {
	case "", "png":
		format = "png"
	case "jpeg", "jpg":
		format = "jpeg"
	default:
		return nil, "", argError("use png or jpeg", "format %q is not png or jpeg", opts.Format)
	}
	if opts.Quality < 0 || opts.Quality > 100 {
		return nil, "", argError("quality is 0 to 100", "quality %d is out of range", opts.Quality)
	}
	if opts.FullPage && !opts.Target.IsZero() {
		return nil, "", argError("pass fullPage or a target, not both", "fullPage and an element target exclude each other")
	}
	var data []byte
	err := p.do(ctx, func(ctx context.Context) error {
		args := page.NewCaptureScreenshotArgs().SetFormat(format)
		quality := opts.Quality
		if quality == 0 {
			quality = 80
		}
		if format == "jpeg" {
			args.SetQuality(quality)
		}
		m, err := p.c.Page.GetLayoutMetrics(ctx)
		if err != nil {
			return fmt.Errorf("layout metrics: %w", err)
		}
		scroll := point{X: float64(m.CSSLayoutViewport.PageX), Y: float64(m.CSSLayoutViewport.PageY)}
		// Where the image starts in viewport coordinates, and how wide it is.
		origin, width := point{}, float64(m.CSSLayoutViewport.ClientWidth)
		switch {
		case opts.FullPage:
			w, h := m.CSSContentSize.Width, m.CSSContentSize.Height
			args.SetClip(page.Viewport{X: 0, Y: 0, Width: math.Ceil(w), Height: math.Min(math.Ceil(h), 16384), Scale: 1}).
				SetCaptureBeyondViewport(true)
			origin, width = point{X: -scroll.X, Y: -scroll.Y}, math.Ceil(w)
		case !opts.Target.IsZero():
			clip, at, err := p.elementClip(ctx, opts.Target, !opts.InPlace)
			if err != nil {
				return err
			}
			args.SetClip(clip)
			if at.X < 0 || at.Y < 0 || at.X+clip.Width > float64(m.CSSLayoutViewport.ClientWidth) || at.Y+clip.Height > float64(m.CSSLayoutViewport.ClientHeight) {
				args.SetCaptureBeyondViewport(true) // only in place: in view otherwise
			}
			origin, width = at, clip.Width
		}
		var boxes []refBox
		if opts.Annotate {
			if boxes, err = p.refBoxes(ctx, opts.FullPage); err != nil {
				return err
			}
		}
		r, err := p.c.Page.CaptureScreenshot(ctx, args)
		if err != nil {
			return fmt.Errorf("capture screenshot: %w", err)
		}
		data = r.Data
		if opts.Annotate {
			data, err = drawAnnotations(data, format, quality, boxes, origin, width)
		}
		return err
	})
	return data, "image/" + format, err
}

// elementClip scrolls the element into view (unless not scroll) and returns
// its bounding box in page coordinates, and its top-left in viewport
// coordinates.
func (p *Page) elementClip(ctx context.Context, t Target, scroll bool) (page.Viewport, point, error) {
	e, err := p.Resolve(ctx, t)
	if err != nil {
		return page.Viewport{}, point{}, err
	}
	inView := e.inView
	if !scroll {
		inView = e.inPlace
	}
	quads, fb, err := inView(ctx)
	if err != nil {
		return page.Viewport{}, point{}, err
	}
	if _, ok := firstCentre(quads); !ok {
		return page.Viewport{}, point{}, e.notVisible()
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, quad := range quads {
		for i := 0; i+1 < len(quad); i += 2 {
			minX, maxX = math.Min(minX, quad[i]), math.Max(maxX, quad[i])
			minY, maxY = math.Min(minY, quad[i+1]), math.Max(maxY, quad[i+1])
		}
	}
	off := fb.at
	m, err := p.c.Page.GetLayoutMetrics(ctx)
	if err != nil {
		return page.Viewport{}, point{}, fmt.Errorf("layout metrics: %w", err)
	}
	sx, sy := float64(m.CSSLayoutViewport.PageX), float64(m.CSSLayoutViewport.PageY)
	at := point{X: minX + off.X, Y: minY + off.Y}
	return page.Viewport{X: at.X + sx, Y: at.Y + sy, Width: maxX - minX, Height: maxY - minY, Scale: 1}, at, nil
}

// inPlace is inView without scrolling: the element's boxes where they are,
// in and out of the viewport.
func (e *Element) inPlace(ctx context.Context) ([]dom.Quad, frameBox, error) {
	q, err := e.c.DOM.GetContentQuads(ctx, dom.NewGetContentQuadsArgs().SetObjectID(e.object))
	if err != nil {
		if nodeGone(err) {
			return nil, frameBox{}, e.gone()
		}
		return nil, frameBox{}, e.notVisible()
	}
	var fb frameBox
	if e.frame != nil {
		if fb, err = e.p.frameBoxOf(ctx, frameIDOf(e.frame)); err != nil {
			return nil, frameBox{}, err
		}
	}
	return q.Quads, fb, nil
}
