package main

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mafredri/cdp/protocol/domsnapshot"
	"github.com/mafredri/cdp/protocol/input"
	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/protocol/runtime"
)

//go:embed js/*.js
var jsFiles embed.FS

func script(name string) string {
	b, err := jsFiles.ReadFile("js/" + name + ".js")
	if err != nil {
		panic(err) // embedded at build time
	}
	return string(b)
}

var findJS = script("find")

// call runs one of js/*.js (a function) with args in the page, in one round
// trip, and decodes its value into out (when not nil).
func (b *browser) call(ctx context.Context, fn string, out any, args ...any) error {
	parts := make([]string, len(args))
	for i, a := range args {
		j, err := json.Marshal(a)
		if err != nil {
			return err
		}
		parts[i] = string(j)
	}
	expr := findJS + "\n(" + strings.TrimSpace(script(fn)) + ")(" + strings.Join(parts, ",") + ")"
	r, err := b.c.Runtime.Evaluate(ctx, runtime.NewEvaluateArgs(expr).SetReturnByValue(true).SetAwaitPromise(true))
	if err != nil {
		return fmt.Errorf("%s: %w", fn, err)
	}
	if r.ExceptionDetails != nil {
		return fmt.Errorf("%s: %s", fn, r.ExceptionDetails.Error())
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(r.Result.Value, out)
}

// read reads the page as a page model must, in one round trip: with the
// default "script", js/read.js's visible text and interactive elements; with
// "domsnapshot", the browser's own DOM and layout dump.
func (b *browser) read(ctx context.Context, how string) (string, error) {
	if how == "domsnapshot" {
		r, err := b.c.DOMSnapshot.CaptureSnapshot(ctx, domsnapshot.NewCaptureSnapshotArgs(nil))
		if err != nil {
			return "", err
		}
		return strings.Join(r.Strings, "\n"), nil
	}
	var text string
	err := b.call(ctx, "read", &text)
	return text, err
}

// fill replaces a field's value as a user's input does, which is what a page's
// framework listens to (setting .value from script is not seen as an edit):
// focus with the content selected, insert the text (one input event, trusted),
// then change and the value read back. Three round trips.
func (b *browser) fill(ctx context.Context, path []string, value string) error {
	if err := b.call(ctx, "focus", nil, path); err != nil {
		return err
	}
	if err := b.c.Input.InsertText(ctx, input.NewInsertTextArgs(value)); err != nil {
		return err
	}
	var got string
	if err := b.call(ctx, "commit", &got, path); err != nil {
		return err
	}
	if got != value {
		return fmt.Errorf("fill %v: the field holds %q", path, got)
	}
	return nil
}

// click presses and releases the left button in the middle of an element.
func (b *browser) click(ctx context.Context, path []string) error {
	var xy [2]float64
	if err := b.call(ctx, "center", &xy, path); err != nil {
		return err
	}
	for _, typ := range []string{"mousePressed", "mouseReleased"} {
		a := input.NewDispatchMouseEventArgs(typ, xy[0], xy[1]).SetButton(input.MouseButtonLeft).SetClickCount(1)
		if err := b.c.Input.DispatchMouseEvent(ctx, a); err != nil {
			return err
		}
	}
	return nil
}

// clickToLoad clicks an element that loads a new document and waits for its
// load event.
func (b *browser) clickToLoad(ctx context.Context, path []string) error {
	wait, err := b.loaded(ctx)
	if err != nil {
		return err
	}
	if err := b.click(ctx, path); err != nil {
		return err
	}
	return wait()
}

// waitText waits for text to show on the page.
func (b *browser) waitText(ctx context.Context, text string) error {
	return b.call(ctx, "waittext", nil, text)
}

// screenshot takes the viewport as PNG, encoded for speed (as
// chrome-devtools-mcp takes its own, faster than the slower encoding).
func (b *browser) screenshot(ctx context.Context) ([]byte, error) {
	r, err := b.c.Page.CaptureScreenshot(ctx, page.NewCaptureScreenshotArgs().SetFormat("png").SetOptimizeForSpeed(true))
	if err != nil {
		return nil, err
	}
	return r.Data, nil
}

// eval returns an expression's value as a string, for checking a scenario's
// outcome.
func (b *browser) eval(ctx context.Context, expr string) (string, error) {
	r, err := b.c.Runtime.Evaluate(ctx, runtime.NewEvaluateArgs(expr).SetReturnByValue(true))
	if err != nil {
		return "", err
	}
	var s string
	_ = json.Unmarshal(r.Result.Value, &s)
	return s, nil
}
