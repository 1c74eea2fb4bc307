package audit

import (
	"bytes"
	"context"
	"image"
	"image/draw"
	"image/jpeg"
	"image/png"
	"log/slog"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/page"
)

// shotMargin is how much surrounding page an element picture shows, in CSS px.
const shotMargin = 8

// shootFindings gives up to max findings whose element is in the viewport a
// picture of it, cut from one screenshot of the viewport: nothing scrolls or
// resizes, so the page notices nothing. Elements out of view get none.
func shootFindings(ctx context.Context, d cdpclient.Door, fs []Finding, max int) {
	var want []int
	for i, f := range fs {
		// The whole document is no picture of a problem.
		if f.box[2] >= 1 && f.box[3] >= 1 && f.Selector != "html" && f.Selector != "html > body" && len(want) < max {
			want = append(want, i)
		}
	}
	if len(want) == 0 {
		return
	}
	var shot []byte
	var vw float64
	_, err := d.Run(ctx, cdpclient.ModeRead, func(ctx context.Context, c *cdp.Client) error {
		m, err := c.Page.GetLayoutMetrics(ctx)
		if err != nil {
			return err
		}
		vw = float64(m.CSSLayoutViewport.ClientWidth)
		r, err := c.Page.CaptureScreenshot(ctx, page.NewCaptureScreenshotArgs().SetFormat("png").SetOptimizeForSpeed(true))
		if err != nil {
			return err
		}
		shot = r.Data
		return nil
	})
	if err != nil {
		slog.Debug("audit screenshot", "err", err)
		return
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil || vw <= 0 {
		return
	}
	scale := float64(img.Bounds().Dx()) / vw
	for _, i := range want {
		b := fs[i].box
		r := image.Rect(int((b[0]-shotMargin)*scale), int((b[1]-shotMargin)*scale),
			int((b[0]+b[2]+shotMargin)*scale), int((b[1]+b[3]+shotMargin)*scale)).Intersect(img.Bounds())
		if r.Dx() < 4 || r.Dy() < 4 {
			continue
		}
		// A wide or tall element: its top-left corner, at a size a reader can
		// still read in the report.
		r.Max = image.Pt(min(r.Max.X, r.Min.X+int(480*scale)), min(r.Max.Y, r.Min.Y+int(200*scale)))
		crop := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
		draw.Draw(crop, crop.Bounds(), img, r.Min, draw.Src)
		var out bytes.Buffer
		if jpeg.Encode(&out, crop, &jpeg.Options{Quality: 80}) == nil {
			fs[i].Shot = out.Bytes()
		}
	}
}
