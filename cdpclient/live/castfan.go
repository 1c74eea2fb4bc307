package live

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/page"
)

// caster is a tab's one screencast, fanned out to its watchers, in the tab's
// slot (Door.Slot). The zero value is ready to use.
type caster struct {
	// op serialises starting, restarting and stopping the browser's stream.
	op sync.Mutex

	mu      sync.Mutex // guards the fields below; never held while calling out
	subs    map[int]*castSub
	next    int
	applied ScreencastOptions // what the browser streams now
	tapStop func()            // nil while not streaming
	last    *Frame
}

// casterKey is the key of a tab's caster in its slot.
type casterKey struct{}

type castSub struct {
	opts ScreencastOptions
	mu   sync.Mutex // one call of fn at a time
	fn   func(Frame)
	got  bool // a frame was delivered
	gone bool
}

// deliver calls fn with f; with first, only if no frame came before.
func (s *castSub) deliver(f Frame, first bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gone || (first && s.got) {
		return
	}
	s.got = true
	s.fn(f)
}

func (c *caster) subscribe(ctx context.Context, p *cdpclient.Page, opts ScreencastOptions, fn func(Frame)) (func(), error) {
	c.op.Lock()
	defer c.op.Unlock()
	sub := &castSub{opts: opts, fn: fn}
	c.mu.Lock()
	if c.subs == nil {
		c.subs = map[int]*castSub{}
	}
	id := c.next
	c.next++
	c.subs[id] = sub
	running, last := c.tapStop != nil, c.last
	c.mu.Unlock()
	if err := c.apply(ctx, p); err != nil {
		c.mu.Lock()
		delete(c.subs, id)
		c.mu.Unlock()
		if !running {
			c.stopStream(p)
		}
		return nil, err
	}
	if running && last != nil {
		sub.deliver(*last, true)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			c.op.Lock()
			defer c.op.Unlock()
			c.mu.Lock()
			delete(c.subs, id)
			empty := len(c.subs) == 0
			c.mu.Unlock()
			sub.mu.Lock()
			sub.gone = true
			sub.mu.Unlock()
			if empty {
				c.stopStream(p)
				return
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			_ = c.apply(ctx, p) // the others may do with smaller frames
		})
	}, nil
}

// merged is what the watchers need together: the largest size (0, the tab's
// own, wins), the best quality, PNG if any wants it.
func (c *caster) merged() ScreencastOptions {
	var m ScreencastOptions
	first := true
	for _, s := range c.subs {
		o := s.opts
		if o.Quality <= 0 {
			o.Quality = 70
		}
		if o.Format != "png" {
			o.Format = "jpeg"
		}
		if first {
			m, first = o, false
			continue
		}
		if o.Format == "png" {
			m.Format = "png"
		}
		m.Quality = max(m.Quality, o.Quality)
		m.MaxWidth = widest(m.MaxWidth, o.MaxWidth)
		m.MaxHeight = widest(m.MaxHeight, o.MaxHeight)
	}
	return m
}

func widest(a, b int) int {
	if a == 0 || b == 0 {
		return 0
	}
	return max(a, b)
}

// apply starts the browser's stream, or restarts it when the watchers now need
// other frames. c.op is held.
func (c *caster) apply(ctx context.Context, p *cdpclient.Page) error {
	c.mu.Lock()
	want, running, applied := c.merged(), c.tapStop != nil, c.applied
	c.mu.Unlock()
	if running && want == applied {
		return nil
	}
	if !running {
		stop, err := p.Tap([]string{"Page.screencastFrame"}, func(ev cdpclient.Event) { c.onFrame(p, ev) })
		if err != nil {
			return err
		}
		c.mu.Lock()
		c.tapStop = stop
		c.mu.Unlock()
	}
	args := page.NewStartScreencastArgs().SetFormat(want.Format).SetQuality(want.Quality).SetEveryNthFrame(1)
	if want.MaxWidth > 0 {
		args.SetMaxWidth(want.MaxWidth)
	}
	if want.MaxHeight > 0 {
		args.SetMaxHeight(want.MaxHeight)
	}
	if running {
		// The browser takes new parameters only on a new start.
		if err := bare(ctx, p, func(c *cdp.Client) error { return c.Page.StopScreencast(ctx) }); err != nil {
			return fmt.Errorf("Page.stopScreencast: %w", err)
		}
	}
	if err := bare(ctx, p, func(c *cdp.Client) error { return c.Page.StartScreencast(ctx, args) }); err != nil {
		return fmt.Errorf("Page.startScreencast: %w", err)
	}
	c.mu.Lock()
	c.applied = want
	c.mu.Unlock()
	return nil
}

// stopStream ends the browser's stream. c.op is held.
func (c *caster) stopStream(p *cdpclient.Page) {
	c.mu.Lock()
	stop := c.tapStop
	c.tapStop, c.applied, c.last = nil, ScreencastOptions{}, nil
	c.mu.Unlock()
	if stop == nil {
		return
	}
	if p.Usable() == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_ = bare(ctx, p, func(c *cdp.Client) error { return c.Page.StopScreencast(ctx) })
		cancel()
	}
	stop()
}

// onFrame hands a frame to every watcher, then acknowledges it so the browser
// sends the next.
func (c *caster) onFrame(p *cdpclient.Page, ev cdpclient.Event) {
	var f struct {
		Data      string `json:"data"`
		SessionID int    `json:"sessionId"`
		Metadata  struct {
			FrameMeta
			Timestamp float64 `json:"timestamp"` // seconds since the epoch
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
		frame := Frame{Data: data, Time: at, Meta: f.Metadata.FrameMeta}
		c.mu.Lock()
		c.last = &frame
		subs := make([]*castSub, 0, len(c.subs))
		for _, s := range c.subs {
			subs = append(subs, s)
		}
		c.mu.Unlock()
		for _, s := range subs {
			s.deliver(frame, false)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), cdpclient.CallTimeout)
	defer cancel()
	_ = bare(ctx, p, func(c *cdp.Client) error {
		return c.Page.ScreencastFrameAck(ctx, page.NewScreencastFrameAckArgs(f.SessionID))
	})
}

// bare makes a call of the stream, which runs beside the page's actions
// and needs none of their rules (cdpclient.ModeBare).
func bare(ctx context.Context, p *cdpclient.Page, call func(c *cdp.Client) error) error {
	_, err := p.Door().Run(ctx, cdpclient.ModeBare, func(_ context.Context, c *cdp.Client) error { return call(c) })
	return err
}
