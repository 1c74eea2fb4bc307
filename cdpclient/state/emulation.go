package state

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mafredri/cdp"
)

// Emulation is what a tab pretends to be: its viewport and device, media
// features, locale and time zone, position, network and CPU. Zero fields
// leave the tab's current setting; Reset clears every setting first.
type Emulation struct {
	// Device is a preset (see Devices): viewport, scale, mobile, user agent.
	Device        string
	Width, Height int     // viewport in CSS pixels
	Scale         float64 // device pixels per CSS pixel
	Mobile        *bool
	ColorScheme   string // light, dark, no-preference
	ReducedMotion string // reduce, no-preference
	Locale        string // e.g. fr-FR
	Timezone      string // IANA id, e.g. Europe/Paris
	Geo           *Geo
	Network       string  // offline, slow3g, fast3g, online
	CPU           float64 // slowdown factor, 1 for none
	Reset         bool
}

// Geo is a position on Earth in degrees, with its accuracy in metres.
type Geo struct{ Latitude, Longitude, Accuracy float64 }

// device is a preset viewport.
type device struct {
	w, h   int
	scale  float64
	mobile bool
	ua     string
}

// Devices are the device presets Emulate knows.
var Devices = map[string]device{
	"iPhone 15":  {393, 852, 3, true, "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"},
	"Pixel 7":    {412, 915, 2.625, true, "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36"},
	"iPad Mini":  {768, 1024, 2, true, "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"},
	"Desktop":    {1280, 720, 1, false, ""},
	"Desktop HD": {1920, 1080, 1, false, ""},
}

// DeviceNames lists the presets, sorted.
func DeviceNames() []string {
	var out []string
	for n := range Devices {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// networkPresets are Chrome DevTools' throttling profiles: latency in ms,
// throughput in bytes per second (-1: no limit).
var networkPresets = map[string]struct {
	offline           bool
	latency, down, up float64
}{
	"online":  {false, 0, -1, -1},
	"offline": {true, 0, -1, -1},
	"slow3g":  {false, 2000, 50 * 1024, 50 * 1024},
	"fast3g":  {false, 562.5, 180 * 1024, 84 * 1024},
}

// emulationState is what a tab emulates now.
type emulationState struct {
	e  Emulation
	ua string
}

// emulating is what a tab emulates, in its slot (Door.Slot).
type emulating struct {
	mu sync.Mutex
	st emulationState
}

// emulatingKey is the key of a tab's emulating in its slot.
type emulatingKey struct{}

// Emulate applies e to the tab (and its out-of-process frames, for what
// applies per document: media, locale, time zone, network) and describes
// everything the tab now emulates. Settings stay with the tab; new tabs
// start without them.
func Emulate(ctx context.Context, p *cdpclient.Page, e Emulation) (string, error) {
	if err := e.check(); err != nil {
		return "", err
	}
	d := p.Door()
	now := d.Slot(emulatingKey{}, func() any { return &emulating{} }).(*emulating)
	now.mu.Lock()
	st := now.st
	now.mu.Unlock()
	if e.Reset {
		st = emulationState{}
	}
	next := st.merge(e)
	_, err := d.Run(ctx, cdpclient.ModeRead, func(ctx context.Context, _ *cdp.Client) error {
		calls, err := next.calls(d, e.Reset)
		if err != nil {
			return err
		}
		for _, c := range calls {
			for _, s := range c.sessions {
				raw, _ := json.Marshal(c.params)
				if _, err := s.Call(ctx, c.method, raw); err != nil {
					return fmt.Errorf("%s: %w", c.method, err)
				}
			}
		}
		return nil
	})
	if err == nil && e.Geo != nil {
		// Pages ask before they read the position: the answer is yes.
		err = browserCall(ctx, p.Context(), "Browser.grantPermissions", map[string]any{"permissions": []string{"geolocation"}}, nil)
	}
	if err != nil {
		return "", err
	}
	now.mu.Lock()
	now.st = next
	now.mu.Unlock()
	return p.ID + " emulates " + next.describe(), nil
}

func (e Emulation) check() error {
	if e.Device != "" {
		if _, ok := Devices[e.Device]; !ok {
			return cdpclient.ArgErrorf("devices: "+strings.Join(DeviceNames(), ", "), "no device preset %q", e.Device)
		}
	}
	if e.Width < 0 || e.Height < 0 || e.Width > 10000 || e.Height > 10000 || e.Scale < 0 || e.Scale > 10 {
		return cdpclient.ArgErrorf("give a viewport of 1 to 10000 CSS pixels a side and a scale up to 10", "viewport %d×%d at scale %g is out of range", e.Width, e.Height, e.Scale)
	}
	if e.Network != "" {
		if _, ok := networkPresets[e.Network]; !ok {
			return cdpclient.ArgErrorf("use offline, slow3g, fast3g or online", "network %q is not known", e.Network)
		}
	}
	if e.CPU < 0 || e.CPU > 50 {
		return cdpclient.ArgErrorf("give a slowdown factor of 1 (none) to 50", "cpu %g is out of range", e.CPU)
	}
	if g := e.Geo; g != nil && (g.Latitude < -90 || g.Latitude > 90 || g.Longitude < -180 || g.Longitude > 180) {
		return cdpclient.ArgErrorf("latitude is -90 to 90, longitude -180 to 180", "position %g,%g is not on Earth", g.Latitude, g.Longitude)
	}
	return nil
}

// merge takes what e sets over the current state.
func (st emulationState) merge(e Emulation) emulationState {
	c := st.e
	if d, ok := Devices[e.Device]; ok {
		mobile := d.mobile
		c.Device, c.Width, c.Height, c.Scale, c.Mobile = e.Device, d.w, d.h, d.scale, &mobile
		st.ua = d.ua
	}
	if e.Width > 0 {
		c.Width = e.Width
	}
	if e.Height > 0 {
		c.Height = e.Height
	}
	if e.Scale > 0 {
		c.Scale = e.Scale
	}
	if e.Mobile != nil {
		c.Mobile = e.Mobile
	}
	for _, f := range []struct {
		to *string
		v  string
	}{
		{&c.ColorScheme, e.ColorScheme}, {&c.ReducedMotion, e.ReducedMotion}, {&c.Locale, e.Locale},
		{&c.Timezone, e.Timezone}, {&c.Network, e.Network},
	} {
		if f.v != "" {
			*f.to = f.v
		}
	}
	if e.Geo != nil {
		c.Geo = e.Geo
	}
	if e.CPU > 0 {
		c.CPU = e.CPU
	}
	st.e = c
	return st
}

// describe says what the state emulates, or "nothing".
func (st emulationState) describe() string {
	e := st.e
	var parts []string
	if e.Width > 0 {
		v := fmt.Sprintf("viewport %d×%d", e.Width, e.Height)
		if e.Scale > 0 && e.Scale != 1 {
			v += fmt.Sprintf(" at %g× (screenshots are %g device pixels per CSS pixel; the mouse takes CSS pixels)", e.Scale, e.Scale)
		}
		if e.Mobile != nil && *e.Mobile {
			v += ", mobile with touch"
		}
		if e.Device != "" {
			v = e.Device + ": " + v
		}
		parts = append(parts, v)
	}
	for _, f := range []struct{ name, v string }{{"color scheme", e.ColorScheme}, {"reduced motion", e.ReducedMotion},
		{"locale", e.Locale}, {"time zone", e.Timezone}, {"network", e.Network}} {
		if f.v != "" {
			parts = append(parts, f.name+" "+f.v)
		}
	}
	if e.Geo != nil {
		parts = append(parts, fmt.Sprintf("position %g,%g", e.Geo.Latitude, e.Geo.Longitude))
	}
	if e.CPU > 1 {
		parts = append(parts, fmt.Sprintf("CPU %g× slower", e.CPU))
	}
	if len(parts) == 0 {
		return "nothing (the browser's own settings)"
	}
	return strings.Join(parts, "; ")
}
