package cdpclient

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/browserproc"
	"github.com/cdpmcp/cdpmcp/fixtures"
)

// A proxy that wants credentials: the browser's requests reach it and are
// answered (the credentials go over DevTools, never on the browser's command
// line); a host on --proxy-bypass goes around it; wrong credentials are
// tried once, not without end.
func TestProxyWithCredentials(t *testing.T) {
	t.Parallel()
	proxy, err := fixtures.StartAuthProxy("proxy-user", "proxy-pass-5678")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(proxy.Close)
	ctx := testContext(t)
	port := testSite.Base[strings.LastIndex(testSite.Base, ":")+1:]
	launch := func(password string) *Browser {
		b, err := Connect(ctx, Options{Launch: LaunchOptions{Headless: true,
			Args:  []string{"--host-resolver-rules=MAP direct.test 127.0.0.1"},
			Proxy: &browserproc.Proxy{Server: proxy.URL, Bypass: "direct.test", User: "proxy-user", Password: password}}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(b.Close)
		return b
	}
	b := launch("proxy-pass-5678")
	cmdline, _ := os.ReadFile("/proc/" + strconv.Itoa(b.proc.PID()) + "/cmdline")
	if !strings.Contains(string(cmdline), "--proxy-server="+proxy.URL) || strings.Contains(string(cmdline), "proxy-pass") {
		t.Errorf("the browser's command line: %q", cmdline)
	}
	p, err := b.Default().NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := outcome(p.Navigate(ctx, "http://proxied.test/page", WaitLoad)); err != nil {
		t.Fatalf("navigate through the proxy: %v", err)
	}
	if title := p.DocumentTitle(ctx); title != "Through the proxy" || proxy.Served() != 1 || proxy.Challenged() != 1 {
		t.Errorf("through the proxy: title %q, served %d, challenged %d", title, proxy.Served(), proxy.Challenged())
	}
	if err := outcome(p.Navigate(ctx, "http://direct.test:"+port+"/second.html", WaitLoad)); err != nil {
		t.Fatalf("navigate around the proxy: %v", err)
	}
	if title := p.DocumentTitle(ctx); title != "Second page" || proxy.Served() != 1 {
		t.Errorf("a bypassed host: title %q, the proxy served %d", title, proxy.Served())
	}

	wrong := launch("not-the-password")
	before := proxy.Challenged()
	p, err = wrong.Default().NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = p.Navigate(ctx, "http://proxied.test/other", WaitLoad)
	if title := p.DocumentTitle(ctx); title == "Through the proxy" || proxy.Served() != 1 {
		t.Errorf("with a wrong password: title %q, served %d", title, proxy.Served())
	}
	if n := proxy.Challenged() - before; n < 1 || n > 3 {
		t.Errorf("with a wrong password the proxy challenged %d requests, want the first and the one wrong answer", n)
	}
}
