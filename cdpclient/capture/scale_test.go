package capture

import (
	"bytes"
	"errors"
	"image"
	_ "image/jpeg"
	_ "image/png"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/cdpclient/state"
)

// On a HiDPI screen (device scale 2) a screenshot has two pixels per CSS
// pixel; scale css takes one, and maxWidth caps the width, for the
// viewport, the full page and an element alike, annotated or not.
func TestScreenshotSize(t *testing.T) {
	t.Parallel()
	p, ctx := cdptest.Open(t, "/snapshot.html")
	if _, err := state.Emulate(ctx, p, state.Emulation{Width: 800, Height: 600, Scale: 2}); err != nil {
		t.Fatal(err)
	}
	width := func(opts ScreenshotOptions) int {
		t.Helper()
		data, _, err := Screenshot(ctx, p, opts)
		if err != nil {
			t.Fatalf("%+v: %v", opts, err)
		}
		cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		return cfg.Width
	}
	for _, tc := range []struct {
		opts     ScreenshotOptions
		min, max int
	}{
		{ScreenshotOptions{}, 1600, 1600},
		{ScreenshotOptions{Scale: "css"}, 800, 800},
		{ScreenshotOptions{MaxWidth: 500}, 490, 500},
		{ScreenshotOptions{MaxWidth: 500, Format: "jpeg"}, 490, 500},
		{ScreenshotOptions{MaxWidth: 1000, Scale: "css"}, 800, 800},
		{ScreenshotOptions{MaxWidth: 333, Annotate: true}, 320, 333},
		{ScreenshotOptions{MaxWidth: 640, FullPage: true}, 620, 640},
		{ScreenshotOptions{Scale: "css", Target: cdpclient.Target{Selector: "h1"}}, 1, 800},
		{ScreenshotOptions{MaxWidth: 100, Target: cdpclient.Target{Selector: "h1"}}, 90, 100},
	} {
		if got := width(tc.opts); got < tc.min || got > tc.max {
			t.Errorf("%+v: %d px wide, want %d to %d", tc.opts, got, tc.min, tc.max)
		}
	}
	for _, bad := range []ScreenshotOptions{{MaxWidth: -1}, {MaxWidth: 8}, {Scale: "retina"}} {
		var ae *cdpclient.ArgError
		if _, _, err := Screenshot(ctx, p, bad); !errors.As(err, &ae) {
			t.Errorf("%+v: %v, want an argument error", bad, err)
		}
	}
}
