package liveview_test

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/cdpmcp/cdpmcp/liveview"
)

type answer struct {
	code int
	body string
	hdr  http.Header
}

func get(t *testing.T, c *http.Client, method, url, body string, hdr ...string) answer {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return answer{res.StatusCode, string(b), res.Header}
}

func browserClient() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, Timeout: testbound.Bound()}
}

// A live view URL holds 256 random bits and works once: in the browser
// whose page first asks for the tab (and there again, a reload), never in
// another; a link preview that fetches the page takes nothing. A wrong,
// expired or withdrawn token gets a page that says so and shows nothing of
// the tab. Calls come only from the view's own origin.
func TestTokensRefused(t *testing.T) {
	t.Parallel()
	tab := newTab(t, jobs, site.URL("/home.html"))
	url, err := lv.Offer(liveview.Offer{Key: "tokens", Tab: tab, Title: "job t", Reason: "a test"})
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^` + regexp.QuoteMeta(lv.BaseURL()) + `/live/[A-Za-z0-9_-]{43}$`).MatchString(url) {
		t.Fatalf("url %q does not hold a 256-bit base64url token", url)
	}
	other, _ := lv.Offer(liveview.Offer{Key: "tokens-other", Tab: tab})
	if other == url {
		t.Fatal("two offers got the same URL")
	}
	a, b, preview := browserClient(), browserClient(), browserClient()
	refused := func(ans answer) bool {
		return (ans.code == http.StatusNotFound || ans.code == http.StatusGone) && strings.Contains(ans.body, "This link cannot be opened") &&
			!strings.Contains(ans.body, "screen") && !strings.Contains(ans.body, "view.js")
	}
	served := func(ans answer) bool { return ans.code == http.StatusOK && strings.Contains(ans.body, `id="screen"`) }
	move := `[{"t":"m","e":"move","x":10,"y":10}]`
	cases := []struct {
		name string
		ans  answer
		ok   bool
	}{
		{"wrong token", get(t, a, "GET", lv.BaseURL()+"/live/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", ""), false},
		{"a token of the wrong length", get(t, a, "GET", url+"x", ""), false},
		{"a link preview's GET", get(t, preview, "GET", url, ""), true},
		{"first opening", get(t, a, "GET", url, ""), true},
		{"a reload in the same browser", get(t, a, "GET", url, ""), true},
		{"another browser, before the view asked for the tab", get(t, b, "GET", url, ""), true},
	}
	if head := get(t, b, "HEAD", url, ""); head.code != http.StatusOK || head.body != "" {
		t.Errorf("a HEAD: %d %q, want 200 and no body, the link unclaimed", head.code, head.body)
	}
	for _, c := range cases {
		if got := served(c.ans); got != c.ok || (!c.ok && !refused(c.ans)) {
			t.Errorf("%s: %d %q", c.name, c.ans.code, c.ans.body)
		}
	}
	page := cases[3].ans
	if csp := page.hdr.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "script-src 'self'") ||
		strings.Contains(csp, "unsafe") || page.hdr.Get("Referrer-Policy") != "no-referrer" || page.hdr.Get("Cache-Control") != "no-store" {
		t.Errorf("headers: %v", page.hdr)
	}
	if sc := page.hdr.Get("Set-Cookie"); !strings.Contains(sc, "HttpOnly") || !strings.Contains(sc, "SameSite=Strict") || !strings.Contains(sc, "Path=/live/") {
		t.Errorf("cookie %q", sc)
	}
	if reload := cases[4].ans; reload.hdr.Get("Set-Cookie") != "" {
		t.Errorf("a reload got another cookie: %q", reload.hdr.Get("Set-Cookie"))
	}
	// The first browser whose page acts claims the view; the others, the
	// preview among them, are refused from then on.
	if ans := get(t, a, "POST", url+"/input", move); ans.code != http.StatusOK {
		t.Fatalf("the first page to act: %d %q", ans.code, ans.body)
	}
	if ans := get(t, b, "GET", url, ""); !refused(ans) {
		t.Errorf("another browser after the claim: %d %q", ans.code, ans.body)
	}
	if ans := get(t, preview, "GET", url+"/frames", ""); ans.code != http.StatusGone {
		t.Errorf("the preview's cookie after the claim: %d", ans.code)
	}
	if ans := get(t, a, "GET", url, ""); !served(ans) {
		t.Errorf("a reload after the claim: %d %q", ans.code, ans.body)
	}
	for _, c := range []struct {
		name   string
		client *http.Client
		body   string
		hdr    []string
		want   int
	}{
		{"input from another browser", b, `[]`, nil, http.StatusGone},
		{"input from another origin", a, `[]`, []string{"Origin", "http://evil.example"}, http.StatusForbidden},
		{"input that is not events", a, `{"t":"m"}`, nil, http.StatusBadRequest},
		{"an unknown event", a, `[{"t":"x"}]`, nil, http.StatusBadRequest},
		{"a coordinate out of range", a, `[{"t":"m","e":"move","x":1e9,"y":0}]`, nil, http.StatusBadRequest},
		{"input from the browser that opened it", a, move, nil, http.StatusOK},
	} {
		if ans := get(t, c.client, "POST", url+"/input", c.body, c.hdr...); ans.code != c.want {
			t.Errorf("%s: %d %q, want %d", c.name, ans.code, ans.body, c.want)
		}
	}
	lv.Withdraw("tokens")
	if ans := get(t, a, "GET", url, ""); !refused(ans) {
		t.Errorf("after Withdraw: %d %q", ans.code, ans.body)
	}
	if ans := get(t, a, "POST", url+"/input", `[]`); ans.code != http.StatusGone {
		t.Errorf("input after Withdraw: %d", ans.code)
	}
	if ans := get(t, b, "GET", other, ""); ans.code != http.StatusOK {
		t.Errorf("withdrawing one offer closed another: %d", ans.code)
	}
	lv.Withdraw("tokens-other")

	short, _ := lv.Offer(liveview.Offer{Key: "tokens-expiring", Tab: tab, Expires: time.Now().Add(300 * time.Millisecond)})
	waitFor(t, "the offer to expire", func() bool { return !lv.Waiting("tokens-expiring") })
	if ans := get(t, browserClient(), "GET", short, ""); !refused(ans) {
		t.Errorf("an expired token: %d %q", ans.code, ans.body)
	}
	for _, name := range []string{"view.js", "view.css"} {
		if ans := get(t, a, "GET", lv.BaseURL()+"/live/static/"+name, ""); ans.code != http.StatusOK || len(ans.body) < 500 {
			t.Errorf("%s: %d", name, ans.code)
		}
	}
	if ans := get(t, a, "GET", lv.BaseURL()+"/live/static/../server.go", ""); ans.code == http.StatusOK {
		t.Errorf("a path out of static/ was served")
	}
}
