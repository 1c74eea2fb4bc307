package egress

import (
	"net/url"

	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
)

// The origin rules hold at two lines. The first is the DevTools Fetch guard
// (cdpclient's guard.go): it pauses each request it sees and tells feedback
// what it refused. The second is this proxy: with rules set, the browser
// reaches the network only through it, and it checks every connection (HTTP,
// CONNECT tunnels for TLS and WebSocket, WebRTC over TURN/TCP) against the
// same rules, so requests the guard never sees (speculative prefetch,
// preconnect, beacons sent as a tab closes, WebSocket handshakes) cannot
// leave either.
//
// A launched browser gets the proxy for everything with --proxy-server
// (LaunchFlags), and flags that keep WebRTC's UDP and the browser's own DNS
// lookups from going around it. An attached browser's flags cannot be
// changed: the contexts cdpmcp creates in it (one per HTTP session) get the
// proxy through Target.createBrowserContext (ContextProxy); its default
// context has the Fetch guard only.
//
// The methods below take a nil *Proxy as a browser without one.

// ForBrowser starts the proxy a browser needs: when policy sets origin rules,
// or when one of cdpmcp's own listeners (reserved, host:port) can be reached
// beyond loopback: then the browser reaches none of them through any address
// of this machine (its LAN address included), with or without rules. It
// returns nil, and no error, when the browser needs none.
func ForBrowser(policy *origins.List, reserved []string) (*Proxy, error) {
	exposed := false
	for _, addr := range reserved {
		exposed = exposed || Exposed(addr)
	}
	if policy.Empty() && !exposed {
		return nil, nil
	}
	p, err := Start(policy)
	if err != nil {
		return nil, err
	}
	for _, addr := range reserved {
		p.Reserve(addr)
	}
	return p, nil
}

// proxyBypass makes loopback destinations go through the proxy too: Chromium
// bypasses proxies for localhost by default.
const proxyBypass = "<-loopback>"

// LaunchFlags are the browser's launch flags that send every connection
// through p.
func (p *Proxy) LaunchFlags() []string {
	if p == nil {
		return nil
	}
	return []string{
		"--proxy-server=" + p.URL(),
		"--proxy-bypass-list=" + proxyBypass,
		// WebRTC: no UDP that does not go through the proxy (which has none),
		// so a peer connection can only use TURN over TCP through the proxy.
		"--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
		"--webrtc-ip-handling-policy=disable_non_proxied_udp",
		// The proxy resolves names; the browser resolves none itself, so DNS
		// prefetch cannot carry data to a name server either.
		"--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
	}
}

// ReserveEndpoint keeps the browser's own DevTools endpoint (its websocket
// URL) out of reach of its pages, whatever the rules allow.
func (p *Proxy) ReserveEndpoint(wsURL string) {
	if p == nil {
		return
	}
	if u, err := url.Parse(wsURL); err == nil && u.Host != "" {
		p.Reserve(u.Host)
	}
}

// ContextProxy is what a browser context created over DevTools
// (Target.createBrowserContext) needs for its connections to go through p:
// its proxy server and bypass list; "" for a nil p.
func (p *Proxy) ContextProxy() (server, bypass string) {
	if p == nil {
		return "", ""
	}
	return p.URL(), proxyBypass
}
