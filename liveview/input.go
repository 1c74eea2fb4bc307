package liveview

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"unicode/utf8"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/live"
)

// inputEvent is one event the viewer sends, in the tab's CSS pixels. T says
// which: "m" mouse (E: move, down, up), "w" wheel, "k" key (E: down, up),
// "i" text from an input method or a paste, "t" touch (E: start, move, end,
// cancel), "r" the viewer's size, "d" an answer to a JavaScript dialog.
type inputEvent struct {
	T string  `json:"t"`
	E string  `json:"e"`
	X float64 `json:"x"`
	Y float64 `json:"y"`
	// Mouse: the button pressed or released, the buttons held (mask), the
	// click count; wheel: the deltas.
	B      string  `json:"b"`
	Bs     int     `json:"bs"`
	C      int     `json:"c"`
	DX     float64 `json:"dx"`
	DY     float64 `json:"dy"`
	M      int     `json:"m"` // modifiers: 1 Alt, 2 Control, 4 Meta, 8 Shift
	Key    string  `json:"key"`
	Code   string  `json:"code"`
	KC     int     `json:"kc"`
	Text   string  `json:"text"`
	Loc    int     `json:"loc"`
	Rep    bool    `json:"rep"`
	Points []struct {
		X, Y float64
		ID   int
	} `json:"pts"`
	W      float64 `json:"w"`
	H      float64 `json:"h"`
	DPR    float64 `json:"dpr"`
	Mobile bool    `json:"mobile"`
	Accept bool    `json:"accept"`
}

// Bounds on what a viewer may send.
const (
	maxInputBody   = 256 << 10
	maxEvents      = 500
	maxInsertText  = 20000
	maxCoord       = 100000
	minViewport    = 200
	maxViewport    = 4096
	maxDeviceScale = 3
)

var errBadInput = errors.New("bad input")

func badInput(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{errBadInput}, args...)...)
}

func coord(v float64) (float64, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < -maxCoord || v > maxCoord {
		return 0, badInput("coordinate %v out of range", v)
	}
	return v, nil
}

// dispatch passes the viewer's events to the tab in order, noting what the
// person types before the key that could send it reaches the page.
func (of *offer) dispatch(ctx context.Context, events []inputEvent) error {
	of.input.Lock()
	defer of.input.Unlock()
	kinds := make([]byte, 0, len(events))
	for _, ev := range events {
		if len(ev.T) == 1 {
			kinds = append(kinds, ev.T[0])
		}
		if err := of.dispatchOne(ctx, ev); err != nil {
			slog.Debug("live view input refused", "offer", of.id, "kinds", string(kinds), "err", err)
			return err
		}
	}
	// Only the kinds of events (m mouse, k key, …): never what they carry.
	slog.Debug("live view input", "offer", of.id, "kinds", string(kinds))
	return nil
}

func (of *offer) dispatchOne(ctx context.Context, ev inputEvent) error {
	tab := of.Tab
	switch ev.T {
	case "m", "w":
		x, err := coord(ev.X)
		if err != nil {
			return err
		}
		y, err := coord(ev.Y)
		if err != nil {
			return err
		}
		me := live.MouseEvent{X: x, Y: y, Buttons: ev.Bs & 7, Modifiers: ev.M & 15}
		if ev.T == "w" {
			me.Type = "mouseWheel"
			me.DeltaX, me.DeltaY = math.Max(-maxCoord, math.Min(ev.DX, maxCoord)), math.Max(-maxCoord, math.Min(ev.DY, maxCoord))
			return live.DispatchMouse(ctx, tab, me)
		}
		switch ev.B {
		case "", "left", "middle", "right":
			me.Button = cdpclient.MouseButton(ev.B)
		default:
			return badInput("button %q", ev.B)
		}
		switch ev.E {
		case "move":
			me.Type, me.Button = "mouseMoved", ""
		case "down":
			of.typed.cut() // a click may move the focus, or send what was typed
			me.Type, me.ClickCount = "mousePressed", min(max(ev.C, 1), 3)
		case "up":
			me.Type, me.ClickCount = "mouseReleased", min(max(ev.C, 1), 3)
		default:
			return badInput("mouse event %q", ev.E)
		}
		return live.DispatchMouse(ctx, tab, me)
	case "k":
		if len(ev.Key) > 32 || len(ev.Code) > 32 || utf8.RuneCountInString(ev.Text) > 2 {
			return badInput("key %q", ev.Key)
		}
		ke := live.KeyEvent{Up: ev.E == "up", Key: ev.Key, Code: ev.Code, KeyCode: ev.KC, Text: ev.Text,
			Modifiers: ev.M & 15, Location: ev.Loc, AutoRepeat: ev.Rep}
		if !ke.Up {
			switch {
			case runEnds(ev.Key):
				of.typed.cut()
			case ev.Key == "Backspace":
				of.typed.back()
			case ev.Text != "" && ev.M&(2|4|1) == 0:
				of.typed.add(ev.Text)
			}
		}
		return live.DispatchKey(ctx, tab, ke)
	case "i":
		if ev.Text == "" || utf8.RuneCountInString(ev.Text) > maxInsertText {
			return badInput("text of %d characters", utf8.RuneCountInString(ev.Text))
		}
		of.typed.add(ev.Text)
		return live.InsertText(ctx, tab, ev.Text)
	case "t":
		typ := map[string]string{"start": "touchStart", "move": "touchMove", "end": "touchEnd", "cancel": "touchCancel"}[ev.E]
		if typ == "" || len(ev.Points) > 10 {
			return badInput("touch event %q with %d points", ev.E, len(ev.Points))
		}
		if typ == "touchStart" {
			of.typed.cut()
		}
		pts := make([]live.TouchPoint, len(ev.Points))
		for i, p := range ev.Points {
			x, err := coord(p.X)
			if err != nil {
				return err
			}
			y, err := coord(p.Y)
			if err != nil {
				return err
			}
			pts[i] = live.TouchPoint{X: x, Y: y, ID: p.ID}
		}
		return live.DispatchTouch(ctx, tab, typ, pts, ev.M&15)
	case "r":
		return of.resize(ctx, ev.W, ev.H, ev.DPR, ev.Mobile)
	case "d":
		if d := tab.Dialog(); d == nil {
			return nil // answered meanwhile
		}
		if ev.Accept && ev.Text != "" {
			of.typed.add(ev.Text) // typed into a prompt: as secret as the rest
			of.typed.cut()
		}
		_, err := tab.HandleDialog(ctx, ev.Accept, ev.Text)
		return err
	}
	return badInput("event type %q", ev.T)
}

// resize makes the tab's viewport the viewer's: w × h CSS pixels at dpr.
func (of *offer) resize(ctx context.Context, w, h, dpr float64, mobile bool) error {
	if math.IsNaN(w) || math.IsNaN(h) || math.IsNaN(dpr) {
		return badInput("size %v×%v", w, h)
	}
	width := int(math.Max(minViewport, math.Min(w, maxViewport)))
	height := int(math.Max(minViewport, math.Min(h, maxViewport)))
	scale := math.Max(1, math.Min(dpr, maxDeviceScale))
	if err := live.SetViewport(ctx, of.Tab, width, height, scale, mobile); err != nil {
		return err
	}
	of.mu.Lock()
	of.resized = true
	of.mu.Unlock()
	return nil
}

// decodeInput reads a viewer's batch of events.
func decodeInput(body []byte) ([]inputEvent, error) {
	var events []inputEvent
	if err := json.Unmarshal(body, &events); err != nil {
		return nil, badInput("not a JSON array of events: %v", err)
	}
	if len(events) > maxEvents {
		return nil, badInput("%d events in one batch (at most %d)", len(events), maxEvents)
	}
	return events, nil
}
