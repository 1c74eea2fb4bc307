package capture

import (
	"context"
	"fmt"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/pagemodel"
	"github.com/cdpmcp/cdpmcp/internal/spans"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/page"
)

// viewport takes the viewport as it is, at the device's scale: the capture
// needs no layout metrics, so the CSS width the picture shows, which marks
// are placed by, is read beside it (measured is false: width is not read).
func viewport(ctx context.Context, c *cdp.Client, args *page.CaptureScreenshotArgs, measured bool) (data []byte, width float64, err error) {
	type metrics struct {
		width float64
		err   error
	}
	read := make(chan metrics, 1)
	if measured {
		go func() {
			m, err := c.Page.GetLayoutMetrics(ctx)
			if err != nil {
				read <- metrics{err: fmt.Errorf("layout metrics: %w", err)}
				return
			}
			read <- metrics{width: float64(m.CSSLayoutViewport.ClientWidth)}
		}()
	}
	data, err = take(ctx, c, args)
	if measured {
		m := <-read
		if err == nil {
			width, err = m.width, m.err
		}
	}
	return data, width, err
}

// viewportBeside is viewport with beside run once the page has drawn the
// picture's frame: a requestAnimationFrame callback runs as the next frame
// begins, and a task queued from it after that frame's work on the main
// thread.
func viewportBeside(ctx context.Context, p *cdpclient.Page, c *cdp.Client, args *page.CaptureScreenshotArgs, measured bool, beside func(context.Context) ([]pagemodel.Box, error)) (data []byte, width float64, boxes []pagemodel.Box, err error) {
	type picture struct {
		data  []byte
		width float64
		err   error
	}
	taken := make(chan picture, 1)
	go func() {
		data, width, err := viewport(ctx, c, args, measured)
		taken <- picture{data, width, err}
	}()
	// A page that draws no frame within frameWait, or cannot be asked, is
	// read at once: the walk says what is wrong with it.
	_ = p.Door().Frames().In(ctx, cdpclient.Frame{}, func(w *cdpclient.World) error {
		fctx, cancel := context.WithTimeout(ctx, frameWait)
		defer cancel()
		_, err := w.Eval(fctx, "new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))", true)
		return err
	})
	if err = ctx.Err(); err == nil {
		boxes, err = beside(ctx)
	}
	pic := <-taken
	if err == nil {
		err = pic.err
	}
	return pic.data, pic.width, boxes, err
}

// frameWait bounds waiting for the page to draw a frame.
const frameWait = 100 * time.Millisecond

// take has the browser take the picture.
func take(ctx context.Context, c *cdp.Client, args *page.CaptureScreenshotArgs) ([]byte, error) {
	defer spans.Start(ctx, "capture")()
	r, err := c.Page.CaptureScreenshot(ctx, args)
	if err != nil {
		return nil, fmt.Errorf("capture screenshot: %w", err)
	}
	return r.Data, nil
}
