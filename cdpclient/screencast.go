package cdpclient

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mafredri/cdp/protocol/page"
)

// Frame is one screencast frame: a JPEG or PNG image of the tab and the time
// the browser drew it.
type Frame struct {
	Data []byte
	Time time.Time
}

// ScreencastOptions say how frames are encoded and scaled.
type ScreencastOptions struct {
	Format    string // jpeg (default) or png
	Quality   int    // jpeg quality; 0 means 70
	MaxWidth  int    // 0: the tab's size
	MaxHeight int
}

// Screencast streams the tab's frames to fn (on a goroutine of its own; each
// frame is acknowledged after fn returns, so a slow fn slows the stream instead
// of queueing frames) until stop is called. The browser sends a frame when the
// tab's picture changes.
func (p *Page) Screencast(ctx context.Context, opts ScreencastOptions, fn func(Frame)) (stop func(), err error) {
	format := "jpeg"
	if opts.Format == "png" {
		format = "png"
	}
	q := opts.Quality
	if q <= 0 {
		q = 70
	}
	tapStop, err := p.Tap([]string{"Page.screencastFrame"}, func(ev Event) {
		var f struct {
			Data      string `json:"data"`
			SessionID int    `json:"sessionId"`
			Metadata  struct {
				Timestamp float64 `json:"timestamp"`
			} `json:"metadata"`
		}
		if json.Unmarshal(ev.Params, &f) != nil {
			return
		}
		if data, err := base64.StdEncoding.DecodeString(f.Data); err == nil {
			at := ev.Time
			if f.Metadata.Timestamp > 0 {
				at = time.UnixMicro(int64(f.Metadata.Timestamp * 1e6))
			}
			fn(Frame{Data: data, Time: at})
		}
		actx, cancel := context.WithTimeout(context.Background(), cdpCallTimeout)
		defer cancel()
		_ = p.c.Page.ScreencastFrameAck(actx, page.NewScreencastFrameAckArgs(f.SessionID))
	})
	if err != nil {
		return nil, err
	}
	args := page.NewStartScreencastArgs().SetFormat(format).SetQuality(q).SetEveryNthFrame(1)
	if opts.MaxWidth > 0 {
		args.SetMaxWidth(opts.MaxWidth)
	}
	if opts.MaxHeight > 0 {
		args.SetMaxHeight(opts.MaxHeight)
	}
	if err := p.c.Page.StartScreencast(ctx, args); err != nil {
		tapStop()
		return nil, fmt.Errorf("Page.startScreencast: %w", err)
	}
	return func() {
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if p.usable() == nil {
			_ = p.c.Page.StopScreencast(sctx)
		}
		tapStop()
	}, nil
}
