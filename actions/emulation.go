package actions

import (
	"context"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient/state"
)

type emulateArgs struct {
	Device        string   `json:"device"`
	Width         int      `json:"width" desc:"viewport, CSS px"`
	Height        int      `json:"height" desc:"viewport, CSS px"`
	Scale         float64  `json:"scale" desc:"device pixel ratio"`
	Mobile        *bool    `json:"mobile" desc:"mobile viewport and touch"`
	ColorScheme   string   `json:"colorScheme" enum:"light,dark,no-preference"`
	ReducedMotion string   `json:"reducedMotion" enum:"reduce,no-preference"`
	Locale        string   `json:"locale" desc:"e.g. fr-FR"`
	Timezone      string   `json:"timezone" desc:"e.g. Europe/Paris"`
	Latitude      *float64 `json:"latitude" desc:"with longitude: geolocation"`
	Longitude     *float64 `json:"longitude"`
	Network       string   `json:"network" enum:"offline,slow3g,fast3g,online"`
	CPU           float64  `json:"cpu" desc:"slowdown factor, e.g. 4"`
	Reset         bool     `json:"reset" desc:"clear all first"`
	Page          string   `json:"page"`
}

// Emulate makes the tab pretend to be a device, in a place and on a network.
var Emulate = define("emulate", "Emulate a device or viewport, color scheme, reduced motion, locale, time zone, geolocation, network (offline, slow) and CPU slowdown in the tab; omitted settings stay. Answers what the tab emulates.",
	ClassAct, Hints{Idempotent: true},
	func(ctx context.Context, env *Env, a emulateArgs) (*Result, error) {
		e := state.Emulation{Device: a.Device, Width: a.Width, Height: a.Height, Scale: a.Scale, Mobile: a.Mobile,
			ColorScheme: a.ColorScheme, ReducedMotion: a.ReducedMotion, Locale: a.Locale, Timezone: a.Timezone,
			Network: a.Network, CPU: a.CPU, Reset: a.Reset}
		if (a.Latitude == nil) != (a.Longitude == nil) {
			return nil, argErr(`for example {"latitude":48.85,"longitude":2.35}`, "give latitude and longitude together")
		}
		if a.Latitude != nil {
			e.Geo = &state.Geo{Latitude: *a.Latitude, Longitude: *a.Longitude}
		}
		return emulate(ctx, env, a.Page, e)
	}).inGroup("emulation").
	describe("device", "preset: "+strings.Join(state.DeviceNames(), ", ")).
	describe("colorScheme", "prefers-color-scheme").describe("reducedMotion", "prefers-reduced-motion").
	describe("longitude", "with latitude").describe("network", "throttling profile")

type resizeArgs struct {
	Width  int    `json:"width" required:"true" desc:"CSS px"`
	Height int    `json:"height" required:"true" desc:"CSS px"`
	Page   string `json:"page"`
}

// Resize sets the tab's viewport size.
var Resize = define("resize", "Resize the tab's viewport to width×height CSS pixels.",
	ClassAct, Hints{Idempotent: true},
	func(ctx context.Context, env *Env, a resizeArgs) (*Result, error) {
		if a.Width <= 0 || a.Height <= 0 {
			return nil, argErr(`for example {"width":1280,"height":720}`, "give width and height in CSS pixels")
		}
		return emulate(ctx, env, a.Page, state.Emulation{Width: a.Width, Height: a.Height})
	}).inGroup("emulation")

func emulate(ctx context.Context, env *Env, page string, e state.Emulation) (*Result, error) {
	p, err := env.Page(ctx, page)
	if err != nil {
		return nil, err
	}
	out, err := state.Emulate(ctx, p, e)
	if err != nil {
		return nil, err
	}
	return &Result{Text: out}, nil
}
