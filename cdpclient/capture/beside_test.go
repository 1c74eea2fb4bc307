package capture

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/cdpclient/pagemodel"
)

// A walk run beside the capture (the agent's step with vision): its boxes
// are the ones drawn, each where its element is in the picture, with frames;
// its error is the screenshot's; and it is refused where the picture is
// clipped or scaled, since the capture then needs the page's metrics first.
func TestWalkBesideTheCapture(t *testing.T) {
	t.Parallel()
	p, ctx := cdptest.Open(t, "/behave/xframe.html")
	before := cdptest.Eval(t, ctx, p, countNodes)
	var boxes []pagemodel.Box
	walked := 0
	data, _, err := Screenshot(ctx, p, ScreenshotOptions{Annotate: true, Beside: func(ctx context.Context) ([]pagemodel.Box, error) {
		walked++
		_, b, err := pagemodel.SnapshotBoxes(ctx, p, pagemodel.Options{})
		boxes = b
		return b, err
	}})
	if err != nil || walked != 1 || len(boxes) == 0 {
		t.Fatalf("Screenshot: walked %d times, %d boxes, %v", walked, len(boxes), err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	checkDrawn(t, "beside", img, boxes)
	if after := cdptest.Eval(t, ctx, p, countNodes); after != before {
		t.Errorf("the page changed: %s → %s", before, after)
	}

	failed := errors.New("the walk failed")
	if _, _, err := Screenshot(ctx, p, ScreenshotOptions{Beside: func(context.Context) ([]pagemodel.Box, error) { return nil, failed }}); !errors.Is(err, failed) {
		t.Errorf("a failed walk: the screenshot's error is %v", err)
	}
	for name, opts := range map[string]ScreenshotOptions{"full page": {FullPage: true}, "css scale": {Scale: "css"}, "max width": {MaxWidth: 400}} {
		opts.Beside = func(context.Context) ([]pagemodel.Box, error) {
			t.Errorf("%s: the walk ran", name)
			return nil, nil
		}
		if _, _, err := Screenshot(ctx, p, opts); err == nil {
			t.Errorf("%s: Beside was taken", name)
		}
	}
}
