package input

import (
	"context"
	"embed"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/jsfunc"
)

//go:embed js/*.js
var jsFiles embed.FS

// funcs are the input actions' page functions (js/*.js), with the core's
// state() they compose with.
var funcs = func() jsfunc.Set {
	s := jsfunc.Load(jsFiles, "js")
	s["state"] = cdpclient.PageFunc("state")
	return s
}()

// call runs page function fn with the element as this and decodes its JSON
// result into out (when out is not nil).
func call(ctx context.Context, e *cdpclient.Element, fn string, out any, args ...any) error {
	return e.Call(ctx, fn, funcs.Func(fn), out, args...)
}

// related runs page function fn on the element and returns a handle to the
// element it answers (nil for null).
func related(ctx context.Context, e *cdpclient.Element, fn string, args ...any) (*cdpclient.Element, error) {
	return e.Related(ctx, fn, funcs.Func(fn), args...)
}
