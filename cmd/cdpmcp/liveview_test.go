package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
)

// openLink GETs a live view link the way a person's browser would (cookies
// kept, no bearer token) and says whether the view was served.
func openLink(t *testing.T, c *http.Client, link string) (int, bool) {
	t.Helper()
	res, err := c.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, strings.Contains(string(b), `id="screen"`)
}

func browserLike() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, Timeout: testbound.Bound()}
}

// A job that needs a person gets a live view link where the server is
// reached: over --http on the same listener under /live/ (no bearer token
// needed there: the token in the link is the key), serving stdio on a
// loopback listener of its own (--live-view-addr). The link opens once, in
// the browser whose view first asks for the tab, and no more when the job no
// longer waits.
func TestLiveViewLinks(t *testing.T) {
	t.Parallel()
	captchaJob := map[string]any{"correlationId": "live", "url": site.URL("/jobs/captcha.html"), "handoffAllowed": true,
		"task": map[string]any{"type": "login"}}
	check := func(t *testing.T, c *client.Client, wantPrefix string) {
		ctx := testCtx(t, 60*time.Second)
		id := jobCall(t, ctx, c, "browser.job.submit", captchaJob)["jobId"].(string)
		st := waitJob(t, ctx, c, id, "WAITING_FOR_HUMAN", "FAILED")
		link, _ := st["handoffUrl"].(string)
		if st["status"] != "WAITING_FOR_HUMAN" || !strings.HasPrefix(link, wantPrefix) {
			t.Fatalf("status %v, want a handoffUrl under %s", st, wantPrefix)
		}
		person, other := browserLike(), browserLike()
		if code, view := openLink(t, person, link); code != 200 || !view {
			t.Errorf("the person: %d, view %t", code, view)
		}
		// The person's view asks for the tab: the link is theirs from then on.
		res, err := person.Post(link+"/input", "application/json", strings.NewReader("[]"))
		if err != nil {
			t.Fatal(err)
		}
		_ = res.Body.Close()
		if res.StatusCode != 200 {
			t.Errorf("the person's view: %d", res.StatusCode)
		}
		for _, c := range []struct {
			name   string
			client *http.Client
			code   int
			view   bool
		}{{"the person again", person, 200, true}, {"someone else", other, 410, false}} {
			if code, view := openLink(t, c.client, link); code != c.code || view != c.view {
				t.Errorf("%s: %d, view %t", c.name, code, view)
			}
		}
		jobCall(t, ctx, c, "browser.job.cancel", map[string]any{"correlationId": "live", "jobId": id})
		if code, view := openLink(t, person, link); code != 404 || view {
			t.Errorf("after cancel: %d, view %t", code, view)
		}
	}
	t.Run("http", func(t *testing.T) {
		t.Parallel()
		s := startHTTP(t, "live-http", "--data-dir", t.TempDir(), "--auth-token", "s3cret-token")
		ctx := testCtx(t, 60*time.Second)
		c, err := client.NewStreamableHttpClient(s.url, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer s3cret-token"}))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close() })
		if err := c.Start(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := initialize(ctx, c, ""); err != nil {
			t.Fatal(err)
		}
		u, _ := url.Parse(s.url)
		check(t, c, "http://"+u.Host+"/live/")
	})
	t.Run("stdio", func(t *testing.T) {
		t.Parallel()
		s := startStdio(t, "live-stdio", "--data-dir", t.TempDir(), "--live-view-addr", "127.0.0.1:0")
		ctx := testCtx(t, 60*time.Second)
		if err := s.c.Start(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := initialize(ctx, s.c, ""); err != nil {
			t.Fatal(err)
		}
		check(t, s.c, "http://127.0.0.1:")
	})
}

// A live view's frames never reach the --trace file: they show the tab.
func TestTraceDropsScreencastFrames(t *testing.T) {
	t.Parallel()
	msg := []byte(`{"method":"Page.screencastFrame","params":{"data":"SECRETPIXELS","metadata":{"deviceWidth":780},"sessionId":3}}`)
	var got map[string]any
	if err := json.Unmarshal(redactCDP("recv", msg), &got); err != nil {
		t.Fatal(err)
	}
	p, _ := got["params"].(map[string]any)
	if p["data"] != "[redacted]" || p["sessionId"] != 3.0 {
		t.Errorf("traced frame %v", got)
	}
}
