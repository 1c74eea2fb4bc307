package capture

import (
	"bytes"
	"errors"
	"fmt"
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

// A full page taller than FullPageMax is cut there, and the picture says how
// much of the page lies below it; a shorter one leaves nothing out.
func TestFullPageCutSaysWhatIsLeft(t *testing.T) {
	t.Parallel()
	p, ctx := cdptest.Open(t, "/snapshot.html")
	shot, err := Take(ctx, p, ScreenshotOptions{FullPage: true, Format: "jpeg", Scale: "css"})
	if err != nil || shot.LeftBelow != 0 {
		t.Fatalf("a short page: left below %d, %v", shot.LeftBelow, err)
	}
	cdptest.Eval(t, ctx, p, "document.body.style.height = '20000px'")
	h := cdptest.Eval(t, ctx, p, "String(document.documentElement.scrollHeight)")
	shot, err = Take(ctx, p, ScreenshotOptions{FullPage: true, Format: "jpeg", Scale: "css"})
	if err != nil {
		t.Fatal(err)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(shot.Data))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Height != FullPageMax || shot.LeftBelow < 20000-FullPageMax || fmt.Sprint(shot.LeftBelow+FullPageMax) != h {
		t.Errorf("a %s px page: a picture %d px high, %d px left below", h, cfg.Height, shot.LeftBelow)
	}
}
