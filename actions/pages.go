package actions

import (
	"context"
	"fmt"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/network"
)

type newPageArgs struct {
	URL string `json:"url" desc:"URL to open"`
}

// NewPage opens a tab.
var NewPage = define("newPage", "Open a tab (optionally at url) and make it current.",
	ClassNavigate, Hints{OpenWorld: true},
	func(ctx context.Context, env *Env, a newPageArgs) (*Result, error) {
		if a.URL != "" {
			if res, err := env.checkNavURL("navigate", a.URL); res != nil || err != nil {
				return res, err
			}
		}
		bc, err := env.Context(ctx)
		if err != nil {
			return nil, err
		}
		p, err := bc.NewPage(ctx)
		if err != nil {
			return nil, err
		}
		if a.URL == "" {
			return &Result{Text: PageList(ctx, bc)}, nil
		}
		fb, err := p.Navigate(ctx, a.URL, cdpclient.WaitLoad)
		if err != nil {
			return nil, err
		}
		fb.Act = "navigate"
		return &Result{Text: PageList(ctx, bc), Feedback: fb}, nil
	})

// ClosePage closes a tab.
var ClosePage = define("closePage", "Close a tab (default: the current one).",
	ClassAct, Hints{Destructive: true},
	func(ctx context.Context, env *Env, a pageOnlyArgs) (*Result, error) {
		p, err := env.Page(ctx, a.Page)
		if err != nil {
			return nil, err
		}
		if err := p.Close(ctx); err != nil {
			return nil, err
		}
		return &Result{Text: "closed " + p.ID + "\n" + PageList(ctx, p.Context())}, nil
	})

type noArgs struct{}

// ListPages lists the open tabs.
var ListPages = define("listPages", "The open tabs: id, title, URL; * marks the current one.",
	ClassRead, Hints{ReadOnly: true, Idempotent: true},
	func(ctx context.Context, env *Env, _ noArgs) (*Result, error) {
		bc, err := env.Context(ctx)
		if err != nil {
			return nil, err
		}
		return &Result{Text: PageList(ctx, bc)}, nil
	})

type switchPageArgs struct {
	Page string `json:"page" required:"true" desc:"page id, e.g. p2"`
}

// SwitchPage makes a tab current.
var SwitchPage = define("switchPage", "Make a tab current and bring it to the front.",
	ClassNavigate, Hints{Idempotent: true},
	func(ctx context.Context, env *Env, a switchPageArgs) (*Result, error) {
		if err := require("page", a.Page, `{"page":"p2"}`); err != nil {
			return nil, err
		}
		p, err := env.Page(ctx, a.Page)
		if err != nil {
			return nil, err
		}
		if err := p.Activate(ctx); err != nil {
			return nil, err
		}
		return &Result{Text: PageList(ctx, p.Context())}, nil
	})

// PageList renders the context's pages, one per line: "* p2 Title — URL", the
// star marking the current page.
func PageList(ctx context.Context, bc *cdpclient.BrowserContext) string {
	pages := bc.Pages()
	if len(pages) == 0 {
		return "no pages open"
	}
	cur := bc.Current()
	var b strings.Builder
	for _, p := range pages {
		mark := " "
		if p == cur {
			mark = "*"
		}
		title := p.DocumentTitle(ctx)
		if title == "" {
			title = "(no title)"
		}
		url := p.URL()
		if p.Held() {
			url += " (does not answer: a JavaScript dialog is most likely open in it)"
		}
		if why := network.Blocked(p); why != "" {
			title, url = "(blocked)", url+" (blocked by the origin rules: "+why+"; the tab shows the browser's error page)"
		}
		fmt.Fprintf(&b, "%s %s %s — %s\n", mark, p.ID, title, url)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
