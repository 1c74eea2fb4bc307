// Package egress is the loopback proxy every connection of a browser leaves
// through when origin rules are set: plain HTTP requests, CONNECT tunnels (TLS,
// WebSocket, TURN over TCP) and WebSocket upgrades are checked against the same
// origins.List the request guard uses, before a byte reaches the destination.
// It is the network-level line behind the DevTools Fetch guard: requests the
// guard never sees (speculative prefetch, preconnect, beacons sent while a tab
// closes, WebSocket handshakes) still pass here.
package egress

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
)

// dialTimeout bounds connecting to a destination; handshakeTimeout bounds the
// wait for a tunnel's first byte (a client that opens a tunnel and says nothing
// holds a goroutine).
const (
	dialTimeout      = 10 * time.Second
	handshakeTimeout = 30 * time.Second
)

// Proxy is a running egress proxy. Start it with Start, stop it with Close.
type Proxy struct {
	policy *origins.List
	ln     net.Listener
	srv    *http.Server
	fwd    *httputil.ReverseProxy
	dialer net.Dialer

	mu       sync.Mutex
	reserved map[string]bool // ports on this machine that are never a destination
	// everywhere are reserved ports of listeners at a wildcard or a
	// machine address: refused at every address of this machine.
	everywhere map[string]bool
	tunnels    map[net.Conn]struct{}

	// lookup resolves names (net.DefaultResolver; tests put in their own).
	lookup func(ctx context.Context, host string) ([]net.IP, error)

	refused atomic.Int64
	// OnRefused, if set before traffic starts, is told of every refused
	// destination (a URL, or scheme://host:port for a tunnel) and why.
	OnRefused func(dest, why string)
}

// Start serves a proxy enforcing policy on a random port of 127.0.0.1.
func Start(policy *origins.List) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("egress proxy: %w", err)
	}
	p := &Proxy{policy: policy, ln: ln, reserved: map[string]bool{}, everywhere: map[string]bool{}, tunnels: map[net.Conn]struct{}{}, lookup: resolve}
	p.dialer = net.Dialer{Timeout: dialTimeout, KeepAlive: 30 * time.Second}
	p.fwd = &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.Out.URL = r.In.URL
			r.Out.Host = "" // the URL's host, never a Host header of the client's choosing
		},
		Transport: &http.Transport{
			Proxy:               nil,
			DialContext:         p.dialChecked,
			DisableCompression:  true, // pass the browser's Accept-Encoding through
			MaxIdleConnsPerHost: 16,
			IdleConnTimeout:     90 * time.Second,
		},
		FlushInterval: -1, // stream: event streams and long downloads
		ErrorLog:      nil,
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			var re *refusedError
			if errors.As(err, &re) {
				p.refuse(r.URL.String(), re.err)
				http.Error(w, "cdpmcp: "+re.Error(), http.StatusForbidden)
				return
			}
			slog.Debug("egress proxy: forward", "url", r.URL.String(), "err", err)
			http.Error(w, "cdpmcp egress proxy: "+err.Error(), http.StatusBadGateway)
		},
	}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: handshakeTimeout, ErrorLog: nil}
	go func() { _ = p.srv.Serve(ln) }()
	return p, nil
}

// Addr is the proxy's host:port on 127.0.0.1.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// URL is the proxy as a browser's --proxy-server value.
func (p *Proxy) URL() string { return "http://" + p.Addr() }

// Refused counts the destinations refused so far (0 for a nil p).
func (p *Proxy) Refused() int64 {
	if p == nil {
		return 0
	}
	return p.refused.Load()
}

// Reserve refuses a host:port on this machine as a destination whatever the
// rules say: the browser's DevTools endpoint, cdpmcp's own HTTP listener, the
// proxy itself. A loopback host reserves the port on every loopback name; a
// wildcard (0.0.0.0, ::) or an address of this machine that is not loopback
// reserves it on every address of the machine (its LAN address included).
func (p *Proxy) Reserve(hostport string) {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case isLocal(host) && !Exposed(hostport):
		p.reserved["*:"+port] = true
	case isLocal(host) || isMachineAddr(host):
		p.reserved["*:"+port] = true
		p.everywhere[port] = true
	default:
		p.reserved[strings.ToLower(hostport)] = true
	}
}

func (p *Proxy) isReserved(host, port string) bool {
	p.mu.Lock()
	everywhere := p.everywhere[port]
	local := isLocal(host) && (p.reserved["*:"+port] || port == portOf(p.ln.Addr().String()))
	exact := p.reserved[strings.ToLower(net.JoinHostPort(host, port))]
	p.mu.Unlock()
	return local || exact || everywhere && isMachineAddr(host)
}

// Close stops the proxy and ends every open tunnel; it returns once the
// listener is closed. A nil p has nothing to close.
func (p *Proxy) Close() error {
	if p == nil {
		return nil
	}
	err := p.srv.Close()
	p.mu.Lock()
	for c := range p.tunnels {
		_ = c.Close()
	}
	p.tunnels = nil // no new tunnels
	p.mu.Unlock()
	return err
}

// ServeHTTP answers a proxy request: CONNECT opens a checked tunnel, an
// absolute-form request is checked and forwarded, anything else is refused.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		p.connect(w, r)
		return
	}
	if !r.URL.IsAbs() || r.URL.Host == "" {
		http.Error(w, "cdpmcp egress proxy: not a proxy request", http.StatusBadRequest)
		return
	}
	dest := r.URL.String()
	if err := p.check(r.URL.Scheme, r.URL.Hostname(), portOrDefault(r.URL.Scheme, r.URL.Port())); err != nil {
		p.refuse(dest, err)
		w.Header().Set("X-Cdpmcp-Refused", "origin policy")
		http.Error(w, "cdpmcp: "+err.Error(), http.StatusForbidden)
		return
	}
	p.fwd.ServeHTTP(w, r)
}

// check applies the reserved ports and the origin rules to one destination.
func (p *Proxy) check(scheme, host, port string) error {
	if p.isReserved(host, port) {
		return fmt.Errorf("%s is one of cdpmcp's own endpoints", net.JoinHostPort(host, port))
	}
	return p.policy.Check(strings.ToLower(scheme) + "://" + net.JoinHostPort(host, port) + "/")
}

func (p *Proxy) refuse(dest string, why error) {
	p.refused.Add(1)
	slog.Info("request refused by the egress proxy", "dest", dest, "why", why)
	if p.OnRefused != nil {
		p.OnRefused(dest, why.Error())
	}
}

func isLocal(host string) bool {
	host = strings.Trim(strings.ToLower(host), "[]")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && (ip.IsLoopback() || ip.IsUnspecified())
}

func portOf(hostport string) string {
	_, port, _ := net.SplitHostPort(hostport)
	return port
}

func portOrDefault(scheme, port string) string {
	if port != "" {
		return port
	}
	switch strings.ToLower(scheme) {
	case "https", "wss":
		return "443"
	}
	return "80"
}
