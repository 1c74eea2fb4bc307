package capture

import (
	"context"
	"encoding/json"
	"math"

	"github.com/cdpmcp/cdpmcp/cdpclient"
)

// A screenshot's size: the browser renders as many pixels as the device has
// (two per CSS pixel on a HiDPI screen or under emulate's scale), which makes
// big images a model pays for and often cannot take. Scale "css" renders one
// pixel per CSS pixel; MaxWidth caps the width. Both scale the capture in
// the browser (the clip's scale), so text stays sharp.

// checkSize refuses sizes that cannot be asked for.
func checkSize(opts ScreenshotOptions) error {
	if opts.MaxWidth < 0 {
		return cdpclient.ArgErrorf("give maxWidth in pixels, e.g. 1280", "maxWidth %d is negative", opts.MaxWidth)
	}
	if opts.MaxWidth > 0 && opts.MaxWidth < 16 {
		return cdpclient.ArgErrorf("give maxWidth in pixels, e.g. 1280", "maxWidth %d is too narrow to show anything", opts.MaxWidth)
	}
	switch opts.Scale {
	case "", "device", "css":
		return nil
	}
	return cdpclient.ArgErrorf("scale is css (one pixel per CSS pixel) or device (the device's pixels)", "scale %q is not css or device", opts.Scale)
}

// imageScale is the factor to render a capture cssWidth CSS pixels wide by,
// for opts' scale and maximum width: 1 to take it as the device renders it.
// Call it inside Door.Run.
func imageScale(ctx context.Context, d cdpclient.Door, opts ScreenshotOptions, cssWidth float64) (float64, error) {
	if opts.MaxWidth == 0 && opts.Scale != "css" {
		return 1, nil
	}
	dpr := 1.0
	err := d.World(ctx, func(w *cdpclient.World) error {
		r, err := w.Eval(ctx, "devicePixelRatio", true)
		if err != nil {
			return err
		}
		var v float64
		if json.Unmarshal(r.Value, &v) == nil && v > 0 {
			dpr = v
		}
		return nil
	})
	if err != nil {
		return 1, err
	}
	scale := 1.0
	if opts.Scale == "css" {
		scale = 1 / dpr
	}
	if width := cssWidth * dpr * scale; opts.MaxWidth > 0 && width > float64(opts.MaxWidth) {
		// The browser rounds the image's size up: aim a hair under.
		scale *= (float64(opts.MaxWidth) - 0.5) / width
	}
	if math.Abs(scale-1) < 1e-9 {
		return 1, nil
	}
	return scale, nil
}
