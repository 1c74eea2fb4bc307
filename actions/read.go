package actions

import (
	"context"
	"fmt"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/capture"
	"github.com/cdpmcp/cdpmcp/cdpclient/content"
	"github.com/cdpmcp/cdpmcp/cdpclient/eval"
	"github.com/cdpmcp/cdpmcp/cdpclient/network"
	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
)

// maxTextResult caps text answers (evaluate, getContent, cdp) so one call cannot
// flood the model's context.
const maxTextResult = 50000

type evaluateArgs struct {
	Expression string `json:"expression" required:"true" desc:"JavaScript"`
	targetArgs
	AwaitPromise *bool  `json:"awaitPromise" desc:"await a returned promise (default true)"`
	From         int    `json:"from" desc:"continue a cut answer"`
	Page         string `json:"page"`
}

// Evaluate runs JavaScript in the page and returns its value as JSON.
var Evaluate = define("evaluate", "Run page JavaScript, return its value as JSON; with ref/selector, a function of the element: (el) => el.value.",
	ClassRead, Hints{Destructive: true, OpenWorld: true},
	func(ctx context.Context, env *Env, a evaluateArgs) (*Result, error) {
		if err := require("expression", a.Expression, `{"expression":"document.title"}`); err != nil {
			return nil, err
		}
		if a.From < 0 {
			return nil, argErr("from is a byte offset from the last line of a cut answer, e.g. 50000", "from %d is negative", a.From)
		}
		p, err := env.Page(ctx, a.Page)
		if err != nil {
			return nil, err
		}
		opts := eval.Options{Target: a.target(), AwaitPromise: a.AwaitPromise == nil || *a.AwaitPromise, SideEffectFree: env.ReadOnly}
		key := fmt.Sprintf("%q %q %q %t", a.Expression, a.Ref, a.Selector, opts.AwaitPromise)
		out, ok := "", false
		if a.From > 0 {
			out, ok = keptText(p, key)
		}
		if !ok {
			if out, err = eval.Evaluate(ctx, p, a.Expression, opts); err != nil {
				return nil, err
			}
			if len(out) > maxTextResult {
				keepText(p, key, out)
			}
		}
		if a.From > len(out) {
			return nil, argErr(fmt.Sprintf("the value has %d bytes", len(out)), "from %d is past the end", a.From)
		}
		return &Result{Text: capFrom(out, a.From, "return a part of the value, e.g. .slice(0, 50000)")}, nil
	}).inReadOnly("Run side-effect-free JavaScript in the page (read-only mode refuses anything that changes the page) and return the value as JSON. With ref/selector, expression must be a function taking the element.",
	Hints{ReadOnly: true, Idempotent: true, OpenWorld: true})

type pageOnlyArgs struct {
	Page string `json:"page"`
}

// GetTitle answers the page's title.
var GetTitle = define("getTitle", "The page's title.", ClassRead, Hints{ReadOnly: true, Idempotent: true},
	func(ctx context.Context, env *Env, a pageOnlyArgs) (*Result, error) {
		p, err := env.usablePage(ctx, a.Page)
		if err != nil {
			return nil, err
		}
		return &Result{Text: p.DocumentTitle(ctx)}, nil
	})

// GetURL answers the page's URL.
var GetURL = define("getUrl", "The page's URL.", ClassRead, Hints{ReadOnly: true, Idempotent: true},
	func(ctx context.Context, env *Env, a pageOnlyArgs) (*Result, error) {
		p, err := env.usablePage(ctx, a.Page)
		if err != nil {
			return nil, err
		}
		if why := network.Blocked(p); why != "" {
			return &Result{Text: p.URL() + " (blocked by the origin rules: " + why + "; the tab shows the browser's error page)"}, nil
		}
		return &Result{Text: p.URL()}, nil
	})

// usablePage returns the page, or why it cannot answer now (a dialog, a crash).
func (e *Env) usablePage(ctx context.Context, id string) (*cdpclient.Page, error) {
	p, err := e.Page(ctx, id)
	if err != nil {
		return nil, err
	}
	return p, p.Usable()
}

type getContentArgs struct {
	Selector string `json:"selector" desc:"CSS, default the whole page"`
	Format   string `json:"format" enum:"markdown,text,html" desc:"default markdown"`
	Whole    bool   `json:"whole" desc:"all the page: nav, header, footer too"`
	From     int    `json:"from" desc:"byte to go on from, as a cut answer says"`
	Page     string `json:"page"`
}

// GetContent answers the page's main content as Markdown (the default) or
// text, or its HTML: what a model reading a page wants first is the article,
// not 50 kB of markup.
var GetContent = define("getContent", "The page's main content as Markdown (the article, as Reader View finds it), text or HTML; or one element's. No refs: use snapshot to act.",
	ClassRead, Hints{ReadOnly: true, Idempotent: true, OpenWorld: true},
	func(ctx context.Context, env *Env, a getContentArgs) (*Result, error) {
		p, err := env.Page(ctx, a.Page)
		if err != nil {
			return nil, err
		}
		if a.From < 0 {
			return nil, argErr("from is a byte offset from the last line of a cut answer, e.g. 50000", "from %d is negative", a.From)
		}
		if a.Format == "" {
			a.Format = "markdown"
		}
		out, err := content.Read(ctx, p, content.Options{Selector: a.Selector, Format: a.Format, Whole: a.Whole})
		if err != nil {
			return nil, err
		}
		if a.From > len(out) {
			return nil, argErr(fmt.Sprintf("the content has %d bytes", len(out)), "from %d is past the end", a.From)
		}
		return &Result{Text: capFrom(out, a.From, "pass a selector to read one part of the page")}, nil
	})

type screenshotArgs struct {
	FullPage bool `json:"fullPage" desc:"whole page"`
	targetArgs
	Annotate bool   `json:"annotate" desc:"number each ref on the image"`
	Format   string `json:"format" enum:"png,jpeg" desc:"default png"`
	Quality  int    `json:"quality" desc:"jpeg, 0-100"`
	MaxWidth int    `json:"maxWidth" desc:"px"`
	Scale    string `json:"scale" enum:"css,device" desc:"css: 1px per CSS px"`
	Page     string `json:"page"`
}

// Screenshot captures the viewport, the full page or one element.
var Screenshot = define("screenshot", "An image of the viewport, the whole page or one element.",
	ClassRead, Hints{ReadOnly: true, Idempotent: true, OpenWorld: true},
	func(ctx context.Context, env *Env, a screenshotArgs) (*Result, error) {
		if env.ReadOnly && a.FullPage {
			return permission("screenshot", "read-only mode takes no full-page screenshot: capturing beyond the viewport resizes it, and the page sees a resize event",
				"take viewport screenshots, scrolling between them"), nil
		}
		p, err := env.Page(ctx, a.Page)
		if err != nil {
			return nil, err
		}
		if a.MaxWidth == 0 {
			a.MaxWidth = env.Screenshot.MaxWidth
		}
		if a.Scale == "" {
			a.Scale = env.Screenshot.Scale
		}
		shot, err := capture.Take(ctx, p, capture.ScreenshotOptions{FullPage: a.FullPage, Target: a.target(), Format: a.Format, Quality: a.Quality,
			Annotate: a.Annotate, InPlace: env.ReadOnly, MaxWidth: a.MaxWidth, Scale: a.Scale})
		if err != nil {
			return nil, err
		}
		res := &Result{Image: &Image{Data: shot.Data, MIME: shot.MIME}}
		if shot.LeftBelow > 0 {
			res.Text = fmt.Sprintf("The picture is the page's first %d CSS pixels: %d more lie below it. Scroll there and take the viewport, or read them with snapshot or getContent.",
				capture.FullPageMax, shot.LeftBelow)
		}
		return res, nil
	})

// capText cuts a long answer and says how much was left out and how to get it.
// The cut never splits a secret (nor a character): it moves to its start.
func capText(s, how string) string {
	if len(s) <= maxTextResult {
		return s
	}
	cut := secrets.Cut(s, maxTextResult)
	note := fmt.Sprintf("\n[truncated: %d more bytes", len(s)-cut)
	if how != "" {
		note += "; " + how
	}
	return s[:cut] + note + "]"
}

// capFrom is capText of s from byte from on, whose note says where the next
// part starts.
func capFrom(s string, from int, how string) string {
	from = secrets.Cut(s, from) // a part never starts inside a secret
	rest := s[from:]
	if len(rest) <= maxTextResult {
		return rest
	}
	cut := secrets.Cut(rest, maxTextResult)
	return fmt.Sprintf("%s\n[truncated: %d more bytes; continue with from: %d, or %s]", rest[:cut], len(rest)-cut, from+cut, how)
}
