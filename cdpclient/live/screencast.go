package live

import (
	"context"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
)

// Frame is one screencast frame: a JPEG or PNG image of the tab, the time the
// browser drew it, and what part of the page it shows.
type Frame struct {
	Data []byte
	Time time.Time
	Meta FrameMeta
}

// FrameMeta is a frame's geometry as the browser reports it. The image covers
// the tab's viewport: DeviceWidth × DeviceHeight DIPs (device-independent
// pixels), below OffsetTop DIPs of browser controls (0 without a window).
// PageScaleFactor is the pinch zoom (CSS pixels × PageScaleFactor = DIPs);
// ScrollX and ScrollY are the page's scroll offset in CSS pixels.
type FrameMeta struct {
	OffsetTop       float64 `json:"offsetTop"`
	PageScaleFactor float64 `json:"pageScaleFactor"`
	DeviceWidth     float64 `json:"deviceWidth"`
	DeviceHeight    float64 `json:"deviceHeight"`
	ScrollX         float64 `json:"scrollOffsetX"`
	ScrollY         float64 `json:"scrollOffsetY"`
}

// ScreencastOptions say how frames are encoded and scaled.
type ScreencastOptions struct {
	Format    string // jpeg (default) or png
	Quality   int    // jpeg quality; 0 means 70
	MaxWidth  int    // 0: the tab's size
	MaxHeight int
}

// Screencast streams the tab's frames to fn until stop is called. The browser
// sends a frame when the tab's picture changes, and one at the start.
//
// Several screencasts of one tab (a job's video and a person's live view)
// share the browser's one stream: it is encoded at the largest size and best
// quality any of them asks for, every frame goes to each of them, and one that
// starts while others run gets the latest frame at once. fn runs on the
// stream's goroutine, never concurrently with itself, and must return quickly:
// the browser sends the next frame only after every fn has returned, so a slow
// fn slows the stream instead of queueing frames. stop blocks until fn has
// returned for the last time.
func Screencast(ctx context.Context, p *cdpclient.Page, opts ScreencastOptions, fn func(Frame)) (stop func(), err error) {
	c := p.Door().Slot(casterKey{}, func() any { return &caster{} }).(*caster)
	return c.subscribe(ctx, p, opts, fn)
}
