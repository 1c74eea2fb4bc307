package egress

import (
	"bufio"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
	"github.com/cdpmcp/cdpmcp/fixtures/watched"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// startProxy serves a proxy allowing only http(s)://127.0.0.1 on any port.
func startProxy(t *testing.T) *Proxy {
	t.Helper()
	policy, err := origins.NewList([]string{"http://127.0.0.1:*", "https://127.0.0.1:*"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Start(policy)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
}

func startWatched(t *testing.T) *watched.Server {
	t.Helper()
	w, err := watched.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Close() })
	return w
}

func proxiedClient(p *Proxy) *http.Client {
	u, _ := url.Parse(p.URL())
	return &http.Client{Timeout: testbound.Bound(), Transport: &http.Transport{
		Proxy:           http.ProxyURL(u),
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true},
	}}
}

// Every kind of request a browser sends a proxy (plain HTTP, a TLS tunnel, a
// plain tunnel as for ws:// or TURN over TCP, a WebSocket upgrade) reaches an
// allowed destination and never a refused one, which counts every connection.
func TestProxyEnforcesRules(t *testing.T) {
	t.Parallel()
	p := startProxy(t)
	evil := startWatched(t)
	ok := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "ok "+r.Host) }))
	defer ok.Close()
	okTLS := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "tls ok") }))
	defer okTLS.Close()
	c := proxiedClient(p)

	for _, tc := range []struct {
		url, want string
		status    int
	}{
		{ok.URL + "/a", "ok " + strings.TrimPrefix(ok.URL, "http://"), 200},
		{okTLS.URL + "/a", "tls ok", 200},
		{evil.URL("/plain"), "", 403},
		{"http://2130706434:" + fmt.Sprint(evil.Port) + "/numeric", "", 403},
		{strings.Replace(evil.URL("/tls"), "http:", "https:", 1), "", 0}, // tunnel refused: a transport error
	} {
		res, err := c.Get(tc.url)
		if tc.status == 0 {
			if err == nil {
				res.Body.Close()
				t.Errorf("GET %s through a refused tunnel succeeded", tc.url)
			}
			continue
		}
		if err != nil {
			t.Errorf("GET %s: %v", tc.url, err)
			continue
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != tc.status || (tc.want != "" && string(body) != tc.want) {
			t.Errorf("GET %s = %d %q, want %d %q", tc.url, res.StatusCode, body, tc.status, tc.want)
		}
	}

	// A raw CONNECT for a plain-text protocol (ws://, TURN over TCP) to the
	// watched origin, whose first byte is not TLS: refused before answering.
	if got := rawConnect(t, p, fmt.Sprintf("%s:%d", watched.Host, evil.Port), "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); !strings.HasPrefix(got, "HTTP/1.1 403") {
		t.Errorf("CONNECT to the watched origin answered %q", got)
	}
	// A plain tunnel to an allowed origin carries what the client sends.
	if got := rawConnect(t, p, strings.TrimPrefix(ok.URL, "http://"), "GET /t HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"); !strings.Contains(got, "ok x") {
		t.Errorf("plain tunnel to an allowed origin answered %q", got)
	}
	if n := evil.Hits(); n != 0 {
		t.Errorf("the watched origin was reached %d times: %v", n, evil.Log())
	}
	if p.Refused() < 4 {
		t.Errorf("Refused() = %d, want at least 4", p.Refused())
	}
}

// A tunnel that is allowed only as http (plain) is not opened for TLS, and one
// allowed only as https is not opened for plain text: the first byte decides.
func TestProxyTunnelSchemeFromFirstByte(t *testing.T) {
	t.Parallel()
	evil := startWatched(t)
	policy, err := origins.NewList([]string{fmt.Sprintf("https://%s:%d", watched.Host, evil.Port)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Start(policy)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	got := rawConnect(t, p, fmt.Sprintf("%s:%d", watched.Host, evil.Port), "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	if !strings.HasPrefix(got, "HTTP/1.1 200") || strings.Contains(got, "watched origin") {
		t.Errorf("plain bytes through a tunnel allowed for https only: %q", got)
	}
	time.Sleep(50 * time.Millisecond)
	if n := evil.Hits(); n != 0 {
		t.Errorf("the watched origin was reached %d times: %v", n, evil.Log())
	}
}

// cdpmcp's own endpoints (the DevTools port, the MCP listener, the proxy) are
// never destinations, under any loopback name, even when the rules allow them.
func TestProxyReservedPorts(t *testing.T) {
	t.Parallel()
	policy, err := origins.NewList([]string{"http://*:*"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Start(policy)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	own := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "devtools") }))
	defer own.Close()
	p.Reserve(own.Listener.Addr().String())
	port := portOf(own.Listener.Addr().String())
	c := proxiedClient(p)
	for _, u := range []string{own.URL + "/json/list", "http://localhost:" + port + "/json", "http://[::1]:" + port + "/", "http://127.0.0.1:" + portOf(p.Addr()) + "/"} {
		res, err := c.Get(u)
		if err != nil {
			continue // refused at the transport: fine
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusForbidden {
			t.Errorf("GET %s = %d %q, want 403", u, res.StatusCode, body)
		}
	}
}

// rawConnect opens a CONNECT tunnel by hand, sends payload once it is
// established, and returns everything read until the connection ends.
func rawConnect(t *testing.T, p *Proxy, dest, payload string) string {
	t.Helper()
	conn, err := net.DialTimeout("tcp", p.Addr(), testbound.Bound())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(3 * time.Second))
	fmt.Fprintf(conn, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", dest, dest)
	br := bufio.NewReader(conn)
	status, err := br.ReadString('\n')
	if err != nil {
		return ""
	}
	if !strings.Contains(status, " 200 ") {
		return status
	}
	for { // the rest of the header
		line, err := br.ReadString('\n')
		if err != nil || line == "\r\n" {
			break
		}
	}
	_, _ = io.WriteString(conn, payload)
	rest, _ := io.ReadAll(br)
	return status + string(rest)
}

// A name that resolves to a blocked address or to one of cdpmcp's own
// endpoints is refused at the address, whatever the name (a hostile name
// pointing at loopback or at a metadata address), and so is an IPv4 address
// written as IPv6.
func TestProxyChecksResolvedAddresses(t *testing.T) {
	t.Parallel()
	evil := startWatched(t)
	// 127.0.0.2 is blocked by address only; every name is allowed.
	policy, err := origins.NewList(nil, []string{"http://127.0.0.2:*"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Start(policy)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.lookup = func(ctx context.Context, host string) ([]net.IP, error) {
		switch host {
		case "evil.test":
			return []net.IP{net.ParseIP("127.0.0.2")}, nil
		case "own.test":
			return []net.IP{net.ParseIP("127.0.0.1")}, nil
		}
		return resolve(ctx, host)
	}
	own := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "devtools") }))
	defer own.Close()
	p.Reserve(own.Listener.Addr().String())
	c := proxiedClient(p)
	for _, u := range []string{
		"http://[::ffff:127.0.0.2]:" + fmt.Sprint(evil.Port) + "/mapped",
		"http://evil.test:" + fmt.Sprint(evil.Port) + "/named",
		"https://evil.test:" + fmt.Sprint(evil.Port) + "/tunnel",
		"http://own.test:" + portOf(own.Listener.Addr().String()) + "/json/list",
	} {
		res, err := c.Get(u)
		if err != nil {
			continue
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusForbidden {
			t.Errorf("GET %s = %d %q, want 403", u, res.StatusCode, b)
		}
	}
	if n := evil.Hits(); n != 0 {
		t.Errorf("the blocked address was reached %d times: %v", n, evil.Log())
	}
}
