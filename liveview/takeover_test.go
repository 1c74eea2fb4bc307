package liveview_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/input"
	"github.com/cdpmcp/cdpmcp/cdpclient/live"
	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/liveview"
)

// handBacks records what the person's buttons did.
type handBacks struct {
	mu     sync.Mutex
	done   int
	gaveUp []string
}

func (h *handBacks) offer(key string, tab *cdpclient.Page, reg *secrets.Registry) liveview.Offer {
	return liveview.Offer{Key: key, Tab: tab, Title: "job " + key + " (login)", Reason: "the sign-in page shows a CAPTCHA", Secrets: reg,
		Done: func(context.Context) error { h.mu.Lock(); h.done++; h.mu.Unlock(); return nil },
		GiveUp: func(_ context.Context, why string) error {
			h.mu.Lock()
			h.gaveUp = append(h.gaveUp, why)
			h.mu.Unlock()
			return nil
		}}
}

// typeKeys types text into the focused element of p as key presses.
func typeKeys(t *testing.T, p *cdpclient.Page, text string) {
	t.Helper()
	ctx := testCtx(t)
	for _, r := range text {
		k := string(r)
		code := "Key" + strings.ToUpper(k)
		if r >= '0' && r <= '9' {
			code = "Digit" + k
		}
		if r == '-' {
			code = "Minus"
		}
		for _, up := range []bool{false, true} {
			ev := live.KeyEvent{Up: up, Key: k, Code: code, KeyCode: int(strings.ToUpper(k)[0])}
			if !up {
				ev.Text = k
			}
			if err := live.DispatchKey(ctx, p, ev); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// A person in another browser sees the tab, solves a CAPTCHA in a cross-site
// frame that takes only trusted clicks, types the password and signs in, then
// presses Done: the tab is signed in, what they typed is a secret, the offer
// is closed and the URL refused, and the tab has its own viewport back.
func TestPersonSignsIn(t *testing.T) {
	t.Parallel()
	tab := newTab(t, jobs, site.URL("/handoff/signin"))
	var before [2]float64
	eval(t, tab, `[innerWidth, innerHeight]`, &before)
	reg := secrets.New()
	var hb handBacks
	url, err := lv.Offer(hb.offer("signin", tab, reg))
	if err != nil {
		t.Fatal(err)
	}
	view, first := openView(t, url)
	t.Logf("first frame %.0f ms after the page opened", first.FirstFrameMs)
	// The tab takes the viewer's size.
	waitFor(t, "the tab to take the viewer's size", func() bool {
		var vp [2]float64
		eval(t, tab, `[innerWidth, innerHeight]`, &vp)
		s := viewer(t, view)
		return vp != before && vp[0] > 0 && abs(s.Width-vp[0]) < 2 && abs(s.Height-vp[1]) < 2
	})
	if s := viewer(t, view); s.Frames < 1 {
		t.Fatal("no frame")
	}
	captcha := rect(t, tab, "#captcha")
	clickTabPoint(t, view, tab, captcha.X+30, captcha.Y+38)
	waitFor(t, "the CAPTCHA to be solved", func() bool {
		return evalString(t, tab, `document.getElementById('captcha-state').textContent`) == "CAPTCHA solved"
	})
	pw := rect(t, tab, "#password")
	clickTabPoint(t, view, tab, pw.X+10, pw.Y+pw.H/2)
	waitFor(t, "the password field to have the focus", func() bool {
		return evalString(t, tab, `document.activeElement.id`) == "password"
	})
	half := len(fixtures.LoginPassword) / 2
	typeKeys(t, view, fixtures.LoginPassword[:half])
	if err := live.InsertText(testCtx(t), view, fixtures.LoginPassword[half:]); err != nil { // as an input method would
		t.Fatal(err)
	}
	waitFor(t, "the password to be typed", func() bool {
		return evalString(t, tab, `document.getElementById('password').value`) == fixtures.LoginPassword
	})
	if got := reg.Redact("pw=" + fixtures.LoginPassword); got != "pw="+secrets.Mask {
		t.Errorf("what the person typed is not a secret: %q", got)
	}
	signin := rect(t, tab, "#signin")
	clickTabPoint(t, view, tab, signin.X+signin.W/2, signin.Y+signin.H/2)
	waitFor(t, "the sign-in", func() bool {
		return evalString(t, tab, `document.getElementById('state')?.textContent || ''`) == "Signed in"
	})
	if n := site.UntrustedCaptchaClicks(); n != 0 {
		t.Errorf("%d untrusted clicks reached the CAPTCHA", n)
	}
	if err := cdpclient.Outcome(view.Click(testCtx(t), cdpclient.Target{Selector: "#done"}, cdpclient.ClickOptions{})); err != nil {
		t.Fatal(err)
	}
	var s liveviewEnd
	waitFor(t, "the view to close", func() bool { s = ended(t, view); return s.ended })
	hb.mu.Lock()
	done := hb.done
	hb.mu.Unlock()
	if done != 1 || !strings.Contains(s.overlay, "You handed the tab back") || lv.Waiting("signin") {
		t.Errorf("after Done: %d calls, overlay %q, still waiting %t", done, s.overlay, lv.Waiting("signin"))
	}
	if ans := get(t, browserClient(), "GET", url, ""); ans.code != 404 {
		t.Errorf("the token still opens: %d", ans.code)
	}
	var after [2]float64
	eval(t, tab, `[innerWidth, innerHeight]`, &after)
	if after != before {
		t.Errorf("the tab's viewport is %v after the view, %v before", after, before)
	}
	if got := reg.Redact(fixtures.LoginPassword); got != secrets.Mask {
		t.Errorf("the password is no longer a secret after the view: %q", got)
	}
}

type liveviewEnd struct {
	ended   bool
	overlay string
}

func ended(t *testing.T, p *cdpclient.Page) liveviewEnd {
	s := viewer(t, p)
	return liveviewEnd{s.Ended, s.Overlay}
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// The view of a job that ended closes and says so; a person who gives up
// says why, and the offer's GiveUp hears it.
func TestViewEnds(t *testing.T) {
	t.Parallel()
	tab := newTab(t, jobs, site.URL("/home.html"))
	var hb handBacks
	url, _ := lv.Offer(hb.offer("ends", tab, nil))
	view, _ := openView(t, url)
	lv.Withdraw("ends")
	var s liveviewEnd
	waitFor(t, "the view to close", func() bool { s = ended(t, view); return s.ended })
	if !strings.Contains(s.overlay, "no longer waits") {
		t.Errorf("overlay %q", s.overlay)
	}

	url, _ = lv.Offer(hb.offer("giveup", tab, nil))
	view, _ = openView(t, url)
	ctx := testCtx(t)
	if err := cdpclient.Outcome(view.Click(ctx, cdpclient.Target{Selector: "#giveup"}, cdpclient.ClickOptions{})); err != nil {
		t.Fatal(err)
	}
	if err := cdpclient.Outcome(input.Type(ctx, view, cdpclient.Target{Selector: "#giveup-reason"}, "no code on my phone", false, true)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the view to close", func() bool { s = ended(t, view); return s.ended })
	hb.mu.Lock()
	defer hb.mu.Unlock()
	if len(hb.gaveUp) != 1 || hb.gaveUp[0] != "no code on my phone" || !strings.Contains(s.overlay, "You gave up") {
		t.Errorf("gave up %q, overlay %q", hb.gaveUp, s.overlay)
	}
	tab.Close(ctx)
}
