package cdpclient

import (
	"net/url"

	"github.com/cdpmcp/cdpmcp/cdpclient/egress"
	"github.com/mafredri/cdp/protocol/target"
)

// The origin rules hold at two lines. The first is the DevTools Fetch guard
// (guard.go): it pauses each request it sees and tells feedback what it refused.
// The second is the egress proxy: with rules set, the browser reaches the
// network only through a loopback proxy inside cdpmcp that checks every
// connection (HTTP, CONNECT tunnels for TLS and WebSocket, WebRTC over TURN/TCP)
// against the same rules, so requests the guard never sees (speculative
// prefetch, preconnect, beacons sent as a tab closes, WebSocket handshakes)
// cannot leave either.
//
// A launched browser gets the proxy for everything with --proxy-server, and
// flags that keep WebRTC's UDP and the browser's own DNS lookups from going
// around it. An attached browser's flags cannot be changed: the contexts cdpmcp
// creates in it (one per HTTP session) get the proxy through
// Target.createBrowserContext; its default context has the Fetch guard only.

// startEgress starts the proxy when the options set origin rules, or when
// one of cdpmcp's own listeners can be reached beyond loopback: then the
// browser reaches none of them through any address of this machine (its LAN
// address included), with or without rules.
func startEgress(opts Options) (*egress.Proxy, error) {
	exposed := false
	for _, addr := range opts.Reserved {
		exposed = exposed || egress.Exposed(addr)
	}
	if opts.Origins.Empty() && !exposed {
		return nil, nil
	}
	p, err := egress.Start(opts.Origins)
	if err != nil {
		return nil, err
	}
	for _, addr := range opts.Reserved {
		p.Reserve(addr)
	}
	return p, nil
}

// proxyBypass makes loopback destinations go through the proxy too: Chromium
// bypasses proxies for localhost by default.
const proxyBypass = "<-loopback>"

// egressFlags are the launch flags that send every connection through p.
func egressFlags(p *egress.Proxy) []string {
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

// reserveEndpoint keeps the browser's own DevTools endpoint out of reach of
// its pages, whatever the rules allow.
func reserveEndpoint(p *egress.Proxy, wsURL string) {
	if p == nil {
		return
	}
	if u, err := url.Parse(wsURL); err == nil && u.Host != "" {
		p.Reserve(u.Host)
	}
}

// proxyContext makes a new browser context's connections go through the proxy.
func proxyContext(p *egress.Proxy, args *target.CreateBrowserContextArgs) {
	if p != nil {
		args.SetProxyServer(p.URL()).SetProxyBypassList(proxyBypass)
	}
}

// EgressRefused counts the connections the egress proxy refused (0 without
// origin rules).
func (b *Browser) EgressRefused() int64 {
	if b.egress == nil {
		return 0
	}
	return b.egress.Refused()
}

func closeEgress(p *egress.Proxy) {
	if p != nil {
		_ = p.Close()
	}
}
