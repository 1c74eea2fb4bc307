package main

import (
	"context"
	"fmt"
	"strings"
)

// step is one of a scenario's steps, named as mcpbench.mjs names it.
type step struct {
	name string
	run  func(ctx context.Context, b *browser, base string) error
}

// scenario is a bench scenario done over raw CDP: the same pages, the same
// steps, and a check (untimed) that the steps did what they should.
type scenario struct {
	name   string
	steps  []step
	verify func(ctx context.Context, b *browser) error
}

var (
	username = []string{"#username"}
	password = []string{"#password"}
	submit   = []string{"#submit"}
	shadowBt = []string{"x-widget", "#sb"}
	frameIn  = []string{"#nl", "#email"}
)

func scenarios(read string) []scenario {
	nav := func(path string) step {
		return step{"navigate", func(ctx context.Context, b *browser, base string) error { return b.navigate(ctx, base+path) }}
	}
	snap := func(name string) step {
		return step{name, func(ctx context.Context, b *browser, _ string) error {
			_, err := b.read(ctx, read)
			return err
		}}
	}
	return []scenario{
		{name: "login", steps: []step{
			nav("/login.html"),
			snap("snapshot login"),
			{"type username", func(ctx context.Context, b *browser, _ string) error { return b.fill(ctx, username, "alice") }},
			{"type password", func(ctx context.Context, b *browser, _ string) error { return b.fill(ctx, password, "correct horse") }},
			{"click submit", func(ctx context.Context, b *browser, _ string) error { return b.clickToLoad(ctx, submit) }},
			{"wait dashboard", func(ctx context.Context, b *browser, _ string) error { return b.waitText(ctx, "Recent invoices") }},
			snap("snapshot dashboard"),
		}, verify: expect("location.pathname + '|' + document.getElementById('who').textContent", "/dashboard.html|alice")},
		{name: "read", steps: []step{nav("/article.html"), snap("snapshot")},
			verify: expect("document.title", "")},
		{name: "stress", steps: []step{nav("/big.html"), snap("snapshot")},
			verify: expect("String(document.querySelectorAll('li').length >= 1000)", "true")},
		{name: "late", steps: []step{
			nav("/late.html"),
			{"wait late element", func(ctx context.Context, b *browser, _ string) error { return b.waitText(ctx, "Data loaded: 42 items") }},
		}, verify: expect("document.getElementById('late').textContent", "Data loaded: 42 items")},
		{name: "frames", steps: []step{
			nav("/frames.html"),
			snap("snapshot"),
			{"click shadow button", func(ctx context.Context, b *browser, _ string) error { return b.click(ctx, shadowBt) }},
			{"type in iframe", func(ctx context.Context, b *browser, _ string) error {
				return b.fill(ctx, frameIn, "bench@example.com")
			}},
		}, verify: expect("document.querySelector('x-widget').shadowRoot.getElementById('status').textContent + '|' + document.getElementById('nl').contentDocument.getElementById('email').value",
			"Shadow clicked|bench@example.com")},
		{name: "shot", steps: []step{
			nav("/article.html"),
			{"screenshot", func(ctx context.Context, b *browser, _ string) error {
				png, err := b.screenshot(ctx)
				if err == nil && len(png) < 1000 {
					err = fmt.Errorf("a %d-byte screenshot", len(png))
				}
				return err
			}},
		}},
	}
}

// expect checks that expr evaluates to want (any non-empty value when want is
// empty).
func expect(expr, want string) func(context.Context, *browser) error {
	return func(ctx context.Context, b *browser) error {
		got, err := b.eval(ctx, expr)
		if err != nil {
			return err
		}
		if got != want && (want != "" || strings.TrimSpace(got) == "") {
			return fmt.Errorf("%s is %q, want %q", expr, got, want)
		}
		return nil
	}
}
