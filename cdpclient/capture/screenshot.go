package capture

import (
	"context"
	"fmt"
	"math"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/pagemodel"
	"github.com/cdpmcp/cdpmcp/cdpclient/snapshot"
	"github.com/cdpmcp/cdpmcp/internal/spans"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/page"
)

// ScreenshotOptions say what to capture.
type ScreenshotOptions struct {
	FullPage bool
	Target   cdpclient.Target // capture just this element
	Format   string           // png (default) or jpeg
	Quality  int              // jpeg quality 0-100; 0 means 80
	// Annotate draws each visible ref's number on its box, onto the image: the
	// page is not touched.
	Annotate bool
	// InPlace captures the target where it is, beyond the viewport if it is
	// there, without scrolling it into view (read-only mode: the page sees no
	// scroll and nothing comes into its view).
	InPlace bool
	// Before, if set, reads the page under the same hold as the capture,
	// just before the browser takes the picture (no action runs between
	// them, so both see the page as it is): the snapshot's walk, say. With
	// Annotate the boxes it returns are those drawn, rather than measured
	// again; its error is the screenshot's. Not with a Target, which may
	// scroll. Before returns as soon as it has read the page, and the
	// picture is asked for then: for a caller that goes on with what Before
	// read and wants the picture later.
	Before func(ctx context.Context) ([]pagemodel.Box, error)
	// Beside is Before run beside the capture: the browser is asked for the
	// picture first, and Beside runs once the page has drawn its next frame
	// (the browser draws the picture's frame on the page's main thread,
	// which a walk would hold, and the two would compete for the cores), so
	// part of the capture's time is the walk's. For a caller that waits for
	// both. Only for the viewport as it is (no clip, no full page, no
	// scaling) and not with Before.
	Beside func(ctx context.Context) ([]pagemodel.Box, error)
	// MaxWidth, if not 0, is the widest the image may be, in pixels: a wider
	// capture is rendered smaller (by the browser, so text stays sharp).
	MaxWidth int
	// Scale is "device" (default: as many pixels as the device has, two per
	// CSS pixel on a HiDPI screen) or "css" (one per CSS pixel).
	Scale string
}

// Screenshot captures the viewport, the full page or one element and returns the
// encoded image and its MIME type.
func Screenshot(ctx context.Context, p *cdpclient.Page, opts ScreenshotOptions) ([]byte, string, error) {
	t, err := Take(ctx, p, opts)
	return t.Data, t.MIME, err
}

// FullPageMax is the height, in CSS pixels, past which a full-page picture
// is cut: longer ones are more than a browser captures in one piece or
// most clients show.
const FullPageMax = 16384

// Taken is a screenshot and what of the page it leaves out.
type Taken struct {
	Data []byte
	MIME string
	// LeftBelow is how many CSS pixels of a full page lie below the
	// picture, cut at FullPageMax (0: none).
	LeftBelow int
}

// Take is Screenshot, saying what a full-page picture left out.
func Take(ctx context.Context, p *cdpclient.Page, opts ScreenshotOptions) (Taken, error) {
	r, err := shoot(ctx, p, opts)
	if err == nil && opts.Annotate {
		// Drawn once the page is free again: decoding, drawing and encoding
		// the picture needs nothing of it.
		endDraw := spans.Start(ctx, "draw")
		r.data, err = drawAnnotations(r.data, r.format, r.quality, r.boxes, r.origin, r.width)
		endDraw()
	}
	return Taken{Data: r.data, MIME: "image/" + r.format, LeftBelow: r.leftBelow}, err
}

// Picture is a screenshot and the marks Annotate would draw on it.
type Picture struct {
	Data  []byte
	MIME  string
	Marks []Mark
}

// ScreenshotMarked takes the picture Screenshot takes with Annotate, and
// returns the marks beside it rather than drawn on it, for a caller that
// shows them another way (an HTML report, over the image): the drawing,
// some 6 ms of CPU for an 800×600 JPEG (drawOnBlocks), is saved.
func ScreenshotMarked(ctx context.Context, p *cdpclient.Page, opts ScreenshotOptions) (Picture, error) {
	opts.Annotate = true
	r, err := shoot(ctx, p, opts)
	if err != nil {
		return Picture{}, err
	}
	m, err := marksOn(r.data, r.boxes, r.origin, r.width)
	if err != nil {
		return Picture{}, err
	}
	return Picture{Data: r.data, MIME: "image/" + r.format, Marks: m}, nil
}

// shot is a picture as the browser took it, and the boxes to mark on it:
// origin is its top-left in viewport CSS pixels and width the CSS pixels it
// shows across.
type shot struct {
	data      []byte
	format    string
	quality   int
	boxes     []pagemodel.Box
	origin    point
	width     float64
	leftBelow int // CSS pixels of a full page below a picture cut at FullPageMax
}

// shoot has the browser take the picture opts ask for.
func shoot(ctx context.Context, p *cdpclient.Page, opts ScreenshotOptions) (shot, error) {
	format := opts.Format
	switch format {
	case "", "png":
		format = "png"
	case "jpeg", "jpg":
		format = "jpeg"
	default:
		return shot{}, cdpclient.ArgErrorf("use png or jpeg", "format %q is not png or jpeg", opts.Format)
	}
	if opts.Quality < 0 || opts.Quality > 100 {
		return shot{}, cdpclient.ArgErrorf("quality is 0 to 100", "quality %d is out of range", opts.Quality)
	}
	if opts.FullPage && !opts.Target.IsZero() {
		return shot{}, cdpclient.ArgErrorf("pass fullPage or a target, not both", "fullPage and an element target exclude each other")
	}
	if err := checkSize(opts); err != nil {
		return shot{}, err
	}
	if opts.Before != nil && !opts.Target.IsZero() {
		return shot{}, fmt.Errorf("capture: Before with a target")
	}
	asIs := !opts.FullPage && opts.Target.IsZero() && opts.MaxWidth == 0 && opts.Scale != "css"
	if opts.Beside != nil && (!asIs || opts.Before != nil) {
		return shot{}, fmt.Errorf("capture: Beside with a clip or with Before")
	}
	var data []byte
	d := p.Door()
	quality := opts.Quality
	if quality == 0 {
		quality = 80
	}
	var boxes []pagemodel.Box
	var origin point
	var width float64
	leftBelow := 0
	var revealed <-chan revealedBoxes
	outer := ctx
	_, err := d.Run(ctx, cdpclient.ModeRead, func(ctx context.Context, c *cdp.Client) error {
		if opts.Before != nil {
			var err error
			if boxes, err = opts.Before(ctx); err != nil {
				return err
			}
		}
		// Encoded for speed (PNG at a lower compression: larger, sooner), as
		// chrome-devtools-mcp takes its screenshots; JPEG is the same.
		args := page.NewCaptureScreenshotArgs().SetFormat(format).SetOptimizeForSpeed(true)
		if format == "jpeg" {
			args.SetQuality(quality)
		}
		if asIs {
			// The viewport as it is: its revealed secret fields are read
			// while the browser draws it.
			revealed = readRevealed(outer, p)
		}
		if asIs && opts.Beside != nil {
			var err error
			data, width, boxes, err = viewportBeside(ctx, p, c, args, opts.Annotate, opts.Beside)
			return err
		}
		if asIs {
			var err error
			if opts.Annotate && opts.Before == nil {
				if boxes, err = latestBoxes(ctx, p, false); err != nil {
					return err
				}
			}
			data, width, err = viewport(ctx, c, args, opts.Annotate)
			return err
		}
		m, err := c.Page.GetLayoutMetrics(ctx)
		if err != nil {
			return fmt.Errorf("layout metrics: %w", err)
		}
		scroll := point{X: float64(m.CSSLayoutViewport.PageX), Y: float64(m.CSSLayoutViewport.PageY)}
		// Where the image starts in viewport coordinates, and how wide it is.
		origin, width = point{}, float64(m.CSSLayoutViewport.ClientWidth)
		var clip *page.Viewport
		tiles := false // a person's tab: the full page in tiles (tiles.go)
		switch {
		case opts.FullPage:
			w, h := m.CSSContentSize.Width, m.CSSContentSize.Height
			clip = &page.Viewport{X: 0, Y: 0, Width: math.Ceil(w), Height: math.Min(math.Ceil(h), FullPageMax), Scale: 1}
			leftBelow = max(int(math.Ceil(h))-FullPageMax, 0)
			if tiles = p.PersonsTab(); !tiles {
				args.SetCaptureBeyondViewport(true)
			}
			origin, width = point{X: -scroll.X, Y: -scroll.Y}, math.Ceil(w)
		case !opts.Target.IsZero():
			e, err := p.Resolve(ctx, opts.Target)
			if err != nil {
				return err
			}
			ec, x, y, err := e.Clip(ctx, !opts.InPlace)
			if err != nil {
				return err
			}
			at := point{X: x, Y: y}
			clip = &ec
			if at.X < 0 || at.Y < 0 || at.X+ec.Width > float64(m.CSSLayoutViewport.ClientWidth) || at.Y+ec.Height > float64(m.CSSLayoutViewport.ClientHeight) {
				args.SetCaptureBeyondViewport(true) // only in place: in view otherwise
			}
			origin, width = at, ec.Width
		}
		if scale, err := imageScale(ctx, d, opts, width); err != nil {
			return err
		} else if scale != 1 {
			if clip == nil { // the viewport, where it is on the page
				clip = &page.Viewport{X: scroll.X, Y: scroll.Y, Width: width, Height: float64(m.CSSLayoutViewport.ClientHeight), Scale: 1}
			}
			clip.Scale *= scale
		}
		if clip != nil {
			args.SetClip(*clip)
		}
		if opts.Annotate && opts.Before == nil {
			if boxes, err = latestBoxes(ctx, p, opts.FullPage); err != nil {
				return err
			}
		}
		if tiles {
			view := point{X: float64(m.CSSLayoutViewport.ClientWidth), Y: float64(m.CSSLayoutViewport.ClientHeight)}
			data, err = tiled(ctx, d, c, args, *clip, view, scroll, format, quality)
			return err
		}
		// The revealed secret fields are read while the browser draws the
		// picture (the page is where it is drawn from by now).
		revealed = readRevealed(outer, p)
		data, err = take(ctx, c, args)
		return err
	})
	s := shot{data: data, format: format, quality: quality, boxes: boxes, origin: origin, width: width, leftBelow: leftBelow}
	if revealed == nil {
		revealed = readRevealed(ctx, p) // tiles: the page is back where it was
	}
	found := <-revealed
	if err != nil {
		return s, err
	}
	s.data, err = paintRevealed(s, found.boxes, found.err) // revealed.go
	return s, err
}

// latestBoxes are the boxes of the refs of the latest snapshot's element
// lines: what the model can act on (not text blocks, frames or summarised
// groups), in the viewport or, whole, anywhere on the page.
func latestBoxes(ctx context.Context, p *cdpclient.Page, whole bool) ([]pagemodel.Box, error) {
	lines, err := pagemodel.Latest(ctx, p)
	if err != nil {
		return nil, err
	}
	return refBoxes(ctx, p.Door(), snapshot.ElementRefs(lines), whole), nil
}
