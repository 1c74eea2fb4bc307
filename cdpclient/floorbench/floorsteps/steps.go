// Package floorsteps is the floor of cdpmcp's benchmarks: what a step needs
// of the browser done over raw CDP (mafredri/cdp's client alone, one script
// or command a round trip where it can), with no feedback, no page model and
// no checks beyond the step's own. cdpclient/floorbench runs the team
// bench's scenarios with it; agentloop's BenchmarkAgentStep a step's actions
// and the reading of the page after them.
package floorsteps

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mafredri/cdp"
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

// OnPage runs fn with the protocol client of a tab cdpmcp opened and
// nothing of cdpmcp's around its calls (no lock, no watch, no feedback): the
// floor's steps on the browser and tab a benchmark's own run used.
func OnPage(ctx context.Context, p *cdpclient.Page, fn func(ctx context.Context, c *cdp.Client) error) error {
	_, err := p.Door().Run(ctx, cdpclient.ModeBare, fn)
	return err
}

// Call runs one of js/*.js (a function) with args in the page, in one round
// trip, and decodes its value into out (when not nil).
func Call(ctx context.Context, c *cdp.Client, fn string, out any, args ...any) error {
	parts := make([]string, len(args))
	for i, a := range args {
		j, err := json.Marshal(a)
		if err != nil {
			return err
		}
		parts[i] = string(j)
	}
	expr := findJS + "\n(" + strings.TrimSpace(script(fn)) + ")(" + strings.Join(parts, ",") + ")"
	r, err := c.Runtime.Evaluate(ctx, runtime.NewEvaluateArgs(expr).SetReturnByValue(true).SetAwaitPromise(true))
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

// Loaded starts listening for the next load event: call it before the action
// that loads a document, then wait on what it returns.
func Loaded(ctx context.Context, c *cdp.Client) (wait func() error, err error) {
	ev, err := c.Page.LoadEventFired(ctx)
	if err != nil {
		return nil, err
	}
	return func() error {
		defer ev.Close()
		_, err := ev.Recv()
		return err
	}, nil
}

// Navigate loads url and waits for its load event.
func Navigate(ctx context.Context, c *cdp.Client, url string) error {
	ev, err := c.Page.LoadEventFired(ctx)
	if err != nil {
		return err
	}
	defer ev.Close()
	r, err := c.Page.Navigate(ctx, page.NewNavigateArgs(url))
	if err == nil && r.ErrorText != nil {
		err = fmt.Errorf("navigate %s: %s", url, *r.ErrorText)
	}
	if err != nil {
		return err
	}
	_, err = ev.Recv()
	return err
}

// Read reads the page as a page model must, in one round trip: with "script"
// (or ""), js/read.js's visible text and interactive elements; with
// "domsnapshot", the browser's own DOM and layout dump.
func Read(ctx context.Context, c *cdp.Client, how string) (string, error) {
	if how == "domsnapshot" {
		r, err := c.DOMSnapshot.CaptureSnapshot(ctx, domsnapshot.NewCaptureSnapshotArgs(nil))
		if err != nil {
			return "", err
		}
		return strings.Join(r.Strings, "\n"), nil
	}
	var text string
	err := Call(ctx, c, "read", &text)
	return text, err
}

// Fill replaces a field's value as a user's input does, which is what a page's
// framework listens to (setting .value from script is not seen as an edit):
// focus with the content selected, insert the text (one input event, trusted),
// then change and the value read back. Three round trips.
func Fill(ctx context.Context, c *cdp.Client, path []string, value string) error {
	if err := Call(ctx, c, "focus", nil, path); err != nil {
		return err
	}
	if err := c.Input.InsertText(ctx, input.NewInsertTextArgs(value)); err != nil {
		return err
	}
	var got string
	if err := Call(ctx, c, "commit", &got, path); err != nil {
		return err
	}
	if got != value {
		return fmt.Errorf("fill %v: the field holds %q", path, got)
	}
	return nil
}

// Click presses and releases the left button in the middle of an element.
func Click(ctx context.Context, c *cdp.Client, path []string) error {
	var xy [2]float64
	if err := Call(ctx, c, "center", &xy, path); err != nil {
		return err
	}
	for _, typ := range []string{"mousePressed", "mouseReleased"} {
		a := input.NewDispatchMouseEventArgs(typ, xy[0], xy[1]).SetButton(input.MouseButtonLeft).SetClickCount(1)
		if err := c.Input.DispatchMouseEvent(ctx, a); err != nil {
			return err
		}
	}
	return nil
}

// WaitText waits for text to show on the page.
func WaitText(ctx context.Context, c *cdp.Client, text string) error {
	return Call(ctx, c, "waittext", nil, text)
}

// Wheel scrolls the page by dy CSS pixels with the mouse wheel over the
// middle of the viewport and waits until the scroll has been applied (its
// target, within what the page can scroll, reached): the position read, the
// wheel, the wait. It returns where the page stopped.
func Wheel(ctx context.Context, c *cdp.Client, dy float64) (float64, error) {
	var at struct{ Y, Max, W, H float64 }
	const read = "({Y: scrollY, Max: document.scrollingElement.scrollHeight - innerHeight, W: innerWidth, H: innerHeight})"
	r, err := c.Runtime.Evaluate(ctx, runtime.NewEvaluateArgs(read).SetReturnByValue(true))
	if err != nil {
		return 0, err
	}
	if r.ExceptionDetails != nil {
		return 0, fmt.Errorf("wheel: %s", r.ExceptionDetails.Error())
	}
	if err := json.Unmarshal(r.Result.Value, &at); err != nil {
		return 0, err
	}
	a := input.NewDispatchMouseEventArgs("mouseWheel", at.W/2, at.H/2).SetDeltaX(0).SetDeltaY(dy)
	if err := c.Input.DispatchMouseEvent(ctx, a); err != nil {
		return 0, err
	}
	var y float64
	err = Call(ctx, c, "scrollwait", &y, int(min(max(at.Y+dy, 0), max(at.Max, 0))))
	return y, err
}

// Screenshot takes the viewport as PNG, encoded for speed (as
// chrome-devtools-mcp takes its own, faster than the slower encoding).
func Screenshot(ctx context.Context, c *cdp.Client) ([]byte, error) {
	return capture(ctx, c, page.NewCaptureScreenshotArgs().SetFormat("png"))
}

// Picture takes the viewport as a JPEG of quality q: the picture a model is
// sent.
func Picture(ctx context.Context, c *cdp.Client, q int) ([]byte, error) {
	return capture(ctx, c, page.NewCaptureScreenshotArgs().SetFormat("jpeg").SetQuality(q))
}

func capture(ctx context.Context, c *cdp.Client, args *page.CaptureScreenshotArgs) ([]byte, error) {
	r, err := c.Page.CaptureScreenshot(ctx, args.SetOptimizeForSpeed(true))
	if err != nil {
		return nil, err
	}
	return r.Data, nil
}
