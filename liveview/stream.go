package liveview

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/live"
)

// The frame stream is a sequence of messages, each a 4-byte big-endian length
// and a JSON header, then a 4-byte length and an image (JPEG; empty for a
// message without a picture). The first message says what waits (hello), the
// last one why the view ended (end); between them come frames and, when the
// tab has not changed for a while, keep-alives with its URL.
type streamHeader struct {
	// Hello: what waits for the person, and until when (Unix ms).
	Hello   bool   `json:"hello,omitempty"`
	Title   string `json:"title,omitempty"`
	Reason  string `json:"reason,omitempty"`
	Expires int64  `json:"expires,omitempty"`
	// A frame: its number and the tab's viewport in DIPs (see
	// live.FrameMeta), the tab's URL, and an open JavaScript dialog.
	N      int               `json:"n,omitempty"`
	W      float64           `json:"w,omitempty"`
	H      float64           `json:"h,omitempty"`
	Top    float64           `json:"top,omitempty"`
	Scale  float64           `json:"scale,omitempty"`
	URL    string            `json:"url,omitempty"`
	Dialog *cdpclient.Dialog `json:"dialog,omitempty"`
	// End: why the view is closed.
	End string `json:"end,omitempty"`
}

// keepAlive is how often a quiet stream says it is still there.
const keepAlive = 5 * time.Second

// maxFramePixels bounds a frame's width and height.
const maxFramePixels = 4096

// latest holds the newest frame not yet sent: a slow viewer skips frames
// instead of holding up the tab's screencast or anyone else's.
type latest struct {
	mu    sync.Mutex
	f     *live.Frame
	ready chan struct{}
}

func (l *latest) put(f live.Frame) {
	l.mu.Lock()
	l.f = &f
	l.mu.Unlock()
	select {
	case l.ready <- struct{}{}:
	default:
	}
}

func (l *latest) take() *live.Frame {
	l.mu.Lock()
	defer l.mu.Unlock()
	f := l.f
	l.f = nil
	return f
}

// serveFrames streams the tab to the viewer until the offer ends, the tab
// closes or the viewer goes.
func (of *offer) serveFrames(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("X-Accel-Buffering", "no")
	bw := bufio.NewWriterSize(w, 64<<10)
	send := func(h streamHeader, img []byte) bool {
		hb, _ := json.Marshal(h)
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(hb)))
		bw.Write(n[:])
		bw.Write(hb)
		binary.BigEndian.PutUint32(n[:], uint32(len(img)))
		bw.Write(n[:])
		bw.Write(img)
		if err := bw.Flush(); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !send(streamHeader{Hello: true, Title: of.Title, Reason: of.Reason, Expires: of.Expires.UnixMilli()}, nil) {
		return
	}
	box := &latest{ready: make(chan struct{}, 1)}
	// Frames at the viewer's own pixels: it asks for w × h (its window times
	// its device pixel ratio).
	size := func(name string) int {
		n, _ := strconv.Atoi(r.URL.Query().Get(name))
		return min(max(n, 100), maxFramePixels)
	}
	opts := live.ScreencastOptions{Format: "jpeg", Quality: 75, MaxWidth: size("w"), MaxHeight: size("h")}
	stop, err := live.Screencast(r.Context(), of.Tab, opts, box.put)
	if err != nil {
		send(streamHeader{End: endClosed}, nil)
		return
	}
	defer stop()
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	n := 0
	// A dialog is said on this stream the moment it opens or closes: the
	// stream is the one voice on it, in order (an input's answer, on
	// another connection, could overtake a frame taken before the dialog).
	changed := of.Tab.Changed()
	var shown *cdpclient.Dialog
	header := func(h streamHeader) streamHeader {
		h.URL, h.Dialog = of.Tab.URL(), of.Tab.Dialog()
		shown = h.Dialog
		return h
	}
	for {
		select {
		case <-of.ended:
			send(streamHeader{End: of.reason()}, nil)
			return
		case <-r.Context().Done():
			return
		case <-tick.C:
			if of.Tab.Usable() != nil && of.Tab.Dialog() == nil {
				of.end(endClosed)
				continue
			}
			if !send(header(streamHeader{}), nil) {
				return
			}
		case <-changed:
			// Said again while one is open: it may be another with the
			// same words (a page that asks until it hears yes).
			changed = of.Tab.Changed()
			if of.Tab.Dialog() != nil || shown != nil {
				if !send(header(streamHeader{}), nil) {
					return
				}
			}
		case <-box.ready:
			f := box.take()
			if f == nil {
				continue
			}
			n++
			h := header(streamHeader{N: n, W: f.Meta.DeviceWidth, H: f.Meta.DeviceHeight, Top: f.Meta.OffsetTop,
				Scale: f.Meta.PageScaleFactor})
			if !send(h, f.Data) {
				return
			}
			tick.Reset(keepAlive)
		}
	}
}
