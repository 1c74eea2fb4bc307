package initscript

import (
	"os"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

func TestMain(m *testing.M) { os.Exit(cdptest.Main(m)) }

// The script runs in every document before the page's own first script:
// in a browser that gives cross-site frames processes of their own
// (--site-per-process, as Chrome with a window does) the cross-site frame's
// session is set up on its own.
func TestInitScriptInOutOfProcessFrames(t *testing.T) {
	t.Parallel()
	ctx := testbound.Context(t)
	b, err := cdpclient.Connect(ctx, cdpclient.Options{Launch: cdpclient.LaunchOptions{Headless: true, Args: []string{"--site-per-process"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	bc, err := b.NewContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := Setup([]string{`window.__cdpmcpInit = 'init ran';`})(ctx, bc); err != nil {
		t.Fatal(err)
	}
	p, err := bc.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := cdpclient.Outcome(p.Navigate(ctx, cdptest.Site.URL("/initscript/page.html"), cdpclient.WaitLoad)); err != nil {
		t.Fatal(err)
	}
	want := cdptest.Site.Base + " init ran | " + cdptest.Site.AltBase + " init ran"
	testbound.Until(t, "both frames to say what their first script saw", func() bool {
		return cdptest.Text(t, ctx, p, "#frames") == want
	})
	if n := len(p.Door().Sessions()); n != 2 {
		t.Errorf("the page has %d sessions: the cross-site frame is not out of process", n)
	}
}

// The script runs in every document before the page's own first script:
// the page, a same-site frame, a cross-site frame and a popup the page
// opens; and in a tab that was open before the set-up, at its next
// document.
func TestInitScriptRunsFirstEverywhere(t *testing.T) {
	t.Parallel()
	ctx := testbound.Context(t)
	bc := cdptest.NewContext(t)
	before, err := bc.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	src := `window.__cdpmcpInit = 'init ran';`
	if err := Setup([]string{src, `window.__second = 2;`})(ctx, bc); err != nil {
		t.Fatal(err)
	}
	p, err := bc.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, page := range []*cdpclient.Page{p, before} {
		if err := cdpclient.Outcome(page.Navigate(ctx, cdptest.Site.URL("/initscript/page.html"), cdpclient.WaitLoad)); err != nil {
			t.Fatal(err)
		}
		if got := cdptest.Text(t, ctx, page, "#seen"); got != "init ran" {
			t.Errorf("the page's first script saw %q", got)
		}
		if got := cdptest.Eval(t, ctx, page, "String(window.__second)"); got != "2" {
			t.Errorf("the second script: %q", got)
		}
		want := cdptest.Site.Base + " init ran | " + cdptest.Site.AltBase + " init ran"
		testbound.Until(t, "both frames to say what their first script saw", func() bool {
			return cdptest.Text(t, ctx, page, "#frames") == want
		})
	}
	cdptest.Eval(t, ctx, p, `window.open('/initscript/frame.html'), 'opened'`)
	var popup *cdpclient.Page
	testbound.Until(t, "the popup to open", func() bool {
		for _, q := range bc.Pages() {
			if q != p && q != before && strings.HasSuffix(q.URL(), "/initscript/frame.html") {
				popup = q
			}
		}
		return popup != nil
	})
	testbound.Until(t, "the popup to load", func() bool { return cdptest.Eval(t, ctx, popup, "document.readyState") == "complete" })
	if got := cdptest.Text(t, ctx, popup, "#seen"); got != "init ran" {
		t.Errorf("the popup's first script saw %q", got)
	}
}
