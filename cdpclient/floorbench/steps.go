package main

import (
	"context"
	"encoding/json"

	"github.com/cdpmcp/cdpmcp/cdpclient/floorbench/floorsteps"
	"github.com/mafredri/cdp/protocol/runtime"
)

// The scenarios' steps are floorsteps' on the browser's tab; clickToLoad and
// navigate (browser.go) also wait for the load event.

func (b *browser) read(ctx context.Context, how string) (string, error) {
	return floorsteps.Read(ctx, b.c, how)
}

func (b *browser) fill(ctx context.Context, path []string, value string) error {
	return floorsteps.Fill(ctx, b.c, path, value)
}

func (b *browser) click(ctx context.Context, path []string) error {
	return floorsteps.Click(ctx, b.c, path)
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

func (b *browser) waitText(ctx context.Context, text string) error {
	return floorsteps.WaitText(ctx, b.c, text)
}

func (b *browser) screenshot(ctx context.Context) ([]byte, error) {
	return floorsteps.Screenshot(ctx, b.c)
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
