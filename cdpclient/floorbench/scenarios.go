package main

import (
	"context"
	"fmt"
	"strings"
)

// step is one of a scenario's steps, named as mcpbench.mjs names it: run
// does it over raw CDP, ours through cdpmcp's tools.
type step struct {
	name string
	run  func(ctx context.Context, b *browser, base string) error
	ours func(ctx context.Context, o *ours, base string) error
}

// scenario is a bench scenario done over raw CDP: the same pages, the same
// steps, and a check (untimed) that the steps did what they should (on
// either side: both read the page with an expression).
type scenario struct {
	name   string
	steps  []step
	verify func(ctx context.Context, e evaluator) error
}

// evaluator reads an expression's value from the page, as text.
type evaluator interface {
	eval(ctx context.Context, expr string) (string, error)
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
		return step{"navigate",
			func(ctx context.Context, b *browser, base string) error { return b.navigate(ctx, base+path) },
			func(ctx context.Context, o *ours, base string) error { return o.navigate(ctx, base+path) }}
	}
	snap := func(name string) step {
		return step{name, func(ctx context.Context, b *browser, _ string) error {
			_, err := b.read(ctx, read)
			return err
		}, func(ctx context.Context, o *ours, _ string) error { return o.snap(ctx) }}
	}
	fill := func(name string, path []string, role, target, value string) step {
		return step{name,
			func(ctx context.Context, b *browser, _ string) error { return b.fill(ctx, path, value) },
			func(ctx context.Context, o *ours, _ string) error { return o.fill(ctx, role, target, value) }}
	}
	wait := func(name, text string) step {
		return step{name,
			func(ctx context.Context, b *browser, _ string) error { return b.waitText(ctx, text) },
			func(ctx context.Context, o *ours, _ string) error { return o.waitText(ctx, text) }}
	}
	return []scenario{
		{name: "login", steps: []step{
			nav("/login.html"),
			snap("snapshot login"),
			fill("type username", username, "textbox", "Username", "alice"),
			fill("type password", password, "textbox", "Password", "correct horse"),
			{"click submit",
				func(ctx context.Context, b *browser, _ string) error { return b.clickToLoad(ctx, submit) },
				func(ctx context.Context, o *ours, _ string) error { return o.click(ctx, "button", "Sign in") }},
			wait("wait dashboard", "Recent invoices"),
			snap("snapshot dashboard"),
		}, verify: expect("location.pathname + '|' + document.getElementById('who').textContent", "/dashboard.html|alice")},
		{name: "read", steps: []step{nav("/article.html"), snap("snapshot")},
			verify: expect("document.title", "")},
		{name: "stress", steps: []step{nav("/big.html"), snap("snapshot")},
			verify: expect("String(document.querySelectorAll('li').length >= 1000)", "true")},
		{name: "late", steps: []step{nav("/late.html"), wait("wait late element", "Data loaded: 42 items")},
			verify: expect("document.getElementById('late').textContent", "Data loaded: 42 items")},
		{name: "frames", steps: []step{
			nav("/frames.html"),
			snap("snapshot"),
			{"click shadow button",
				func(ctx context.Context, b *browser, _ string) error { return b.click(ctx, shadowBt) },
				func(ctx context.Context, o *ours, _ string) error { return o.click(ctx, "button", "Shadow action") }},
			fill("type in iframe", frameIn, "textbox", "Email address", "bench@example.com"),
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
			}, func(ctx context.Context, o *ours, _ string) error { return o.screenshot(ctx) }},
		}},
	}
}

// expect checks that expr evaluates to want (any non-empty value when want is
// empty).
func expect(expr, want string) func(context.Context, evaluator) error {
	return func(ctx context.Context, e evaluator) error {
		got, err := e.eval(ctx, expr)
		if err != nil {
			return err
		}
		if got != want && (want != "" || strings.TrimSpace(got) == "") {
			return fmt.Errorf("%s is %q, want %q", expr, got, want)
		}
		return nil
	}
}
