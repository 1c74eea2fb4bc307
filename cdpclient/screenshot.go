package cdpclient

import (
	"context"
	"fmt"
	"math"

	"github.com/mafredri/cdp/protocol/page"
)

// ScreenshotOptions say what to capture.
type ScreenshotOptions struct {
	FullPage bool
	Target   Target // capture just this element
	Format   string // png (default) or jpeg
	Quality  int    // jpeg quality 0-100; 0 means 80
	// Annotate draws each visible ref's number on its box.
	Annotate bool
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
		if format == "jpeg" {
			q := opts.Quality
			if q == 0 {
				q = 80
			}
			args.SetQuality(q)
		}
		switch {
		case opts.FullPage:
			m, err := p.c.Page.GetLayoutMetrics(ctx)
			if err != nil {
				return fmt.Errorf("layout metrics: %w", err)
			}
			w, h := m.CSSContentSize.Width, m.CSSContentSize.Height
			args.SetClip(page.Viewport{X: 0, Y: 0, Width: math.Ceil(w), Height: math.Min(math.Ceil(h), 16384), Scale: 1}).
				SetCaptureBeyondViewport(true)
		case !opts.Target.IsZero():
			clip, err := p.elementClip(ctx, opts.Target)
			if err != nil {
				return err
			}
			args.SetClip(clip)
		}
		if opts.Annotate {
			remove, err := p.annotate(ctx)
			if err != nil {
				return err
			}
			defer remove()
		}
		r, err := p.c.Page.CaptureScreenshot(ctx, args)
		if err != nil {
			return fmt.Errorf("capture screenshot: %w", err)
		}
		data = r.Data
		return nil
	})
	return data, "image/" + format, err
}

// elementClip returns the element's bounding box in page coordinates.
func (p *Page) elementClip(ctx context.Context, t Target) (page.Viewport, error) {
	e, err := p.Resolve(ctx, t)
	if err != nil {
		return page.Viewport{}, err
	}
	quads, fb, err := e.inView(ctx)
	if err != nil {
		return page.Viewport{}, err
	}
	if _, ok := firstCentre(quads); !ok {
		return page.Viewport{}, e.notVisible()
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
		return page.Viewport{}, fmt.Errorf("layout metrics: %w", err)
	}
	sx, sy := float64(m.CSSLayoutViewport.PageX), float64(m.CSSLayoutViewport.PageY)
	return page.Viewport{X: minX + off.X + sx, Y: minY + off.Y + sy, Width: maxX - minX, Height: maxY - minY, Scale: 1}, nil
}
