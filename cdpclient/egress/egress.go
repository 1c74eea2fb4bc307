// Package egress is the loopback proxy every connection of a browser leaves
// through when origin rules are set: plain HTTP requests, CONNECT tunnels (TLS,
// WebSocket, TURN over TCP) and WebSocket upgrades are checked against the same
// origins.List the request guard uses, before a byte reaches the destination.
// It is the network-level line behind the DevTools Fetch guard: requests the
// guard never sees (speculative prefetch, preconnect, beacons sent while a tab
// closes, WebSocket handshakes) still pass here.
package egress

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
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
	tunnels  map[net.Conn]struct{}

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
	p := &Proxy{policy: policy, ln: ln, reserved: map[string]bool{}, tunnels: map[net.Conn]struct{}{}, lookup: resolve}
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

// Refused counts the destinations refused so far.
func (p *Proxy) Refused() int64 { return p.refused.Load() }

// Reserve refuses a host:port on this machine as a destination whatever the
// rules say: the browser's DevTools endpoint, cdpmcp's own HTTP listener, the
// proxy itself. A loopback or unspecified host reserves the port on every
// loopback name.
func (p *Proxy) Reserve(hostport string) {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if isLocal(host) {
		p.reserved["*:"+port] = true
	} else {
		p.reserved[strings.ToLower(hostport)] = true
	}
}

func (p *Proxy) isReserved(host, port string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if isLocal(host) && (p.reserved["*:"+port] || port == portOf(p.ln.Addr().String())) {
		return true
	}
	return p.reserved[strings.ToLower(net.JoinHostPort(host, port))]
}

// Close stops the proxy and ends every open tunnel; it returns once the
// listener is closed.
func (p *Proxy) Close() error {
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

// dialChecked is the forwarder's dialer: it checks the destination once more,
// so no redirect or retry inside the transport can reach a refused one.
func (p *Proxy) dialChecked(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	return p.dialDest(ctx, host, port)
}

// refusedError is a destination refused once its name was resolved.
type refusedError struct{ err error }

func (e *refusedError) Error() string { return e.err.Error() }

// dialDest resolves host once, refuses the destination if any of its addresses
// is one of cdpmcp's own endpoints or blocked by IP, and connects to a checked
// address (never resolving again, so the name cannot change in between).
func (p *Proxy) dialDest(ctx context.Context, host, port string) (net.Conn, error) {
	ips, err := p.lookup(ctx, host)
	if err != nil {
		return nil, err
	}
	for _, ip := range ips {
		if (ip.IsLoopback() || ip.IsUnspecified()) && p.isReserved(ip.String(), port) {
			return nil, &refusedError{fmt.Errorf("%s leads to %s, one of cdpmcp's own endpoints", host, net.JoinHostPort(ip.String(), port))}
		}
		if err := p.policy.CheckBlockedAddr(ip, port); err != nil {
			return nil, &refusedError{fmt.Errorf("%s leads to %w", host, err)}
		}
	}
	var last error
	for _, ip := range ips {
		c, err := p.dialer.DialContext(ctx, "tcp", net.JoinHostPort(ip.String(), port))
		if err == nil {
			return c, nil
		}
		last = err
	}
	return nil, last
}

func resolve(ctx context.Context, host string) ([]net.IP, error) {
	if ip := net.ParseIP(strings.Trim(host, "[]")); ip != nil {
		return []net.IP{ip}, nil
	}
	addrs, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	if err != nil {
		return nil, err
	}
	ips := make([]net.IP, len(addrs))
	for i, a := range addrs {
		ips[i] = a.IP
	}
	return ips, nil
}

// connect opens a tunnel. Before answering it checks that the destination is
// allowed as https:// or http:// at all; then it reads the client's first byte
// (a TLS record starts with 0x16) to know which of the two the tunnel carries,
// checks that one, and only then connects to the destination.
func (p *Proxy) connect(w http.ResponseWriter, r *http.Request) {
	host, port, err := net.SplitHostPort(r.Host)
	if err != nil || host == "" || port == "" {
		http.Error(w, "cdpmcp egress proxy: CONNECT needs host:port", http.StatusBadRequest)
		return
	}
	errTLS, errPlain := p.check("https", host, port), p.check("http", host, port)
	if errTLS != nil && errPlain != nil {
		p.refuse("tunnel to "+r.Host, errTLS)
		http.Error(w, "cdpmcp: "+errTLS.Error(), http.StatusForbidden)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		http.Error(w, "cdpmcp egress proxy: cannot tunnel", http.StatusInternalServerError)
		return
	}
	client, buf, err := hj.Hijack()
	if err != nil {
		return
	}
	if !p.track(client) {
		_ = client.Close()
		return
	}
	defer p.untrack(client)
	defer client.Close()
	if _, err := io.WriteString(client, "HTTP/1.1 200 Connection Established\r\n\r\n"); err != nil {
		return
	}
	_ = client.SetReadDeadline(time.Now().Add(handshakeTimeout))
	first, err := buf.Reader.Peek(1)
	if err != nil {
		return
	}
	_ = client.SetReadDeadline(time.Time{})
	scheme, verdict := "http", errPlain
	if first[0] == 0x16 {
		scheme, verdict = "https", errTLS
	}
	if verdict != nil {
		p.refuse(scheme+"://"+r.Host, verdict)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), dialTimeout)
	upstream, err := p.dialDest(ctx, host, port)
	cancel()
	var re *refusedError
	if errors.As(err, &re) {
		p.refuse(scheme+"://"+r.Host, re.err)
		return
	}
	if err != nil {
		slog.Debug("egress proxy: tunnel", "dest", r.Host, "err", err)
		return
	}
	defer upstream.Close()
	pipe(client, buf.Reader, upstream)
}

// pipe copies both ways until either side ends, then closes both.
func pipe(client net.Conn, fromClient *bufio.Reader, upstream net.Conn) {
	done := make(chan struct{}, 2)
	go func() {
		_, _ = io.Copy(upstream, fromClient)
		closeWrite(upstream)
		done <- struct{}{}
	}()
	go func() {
		_, _ = io.Copy(client, upstream)
		closeWrite(client)
		done <- struct{}{}
	}()
	<-done
	<-done
}

// closeWrite half-closes a TCP connection so the other direction can finish.
func closeWrite(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.CloseWrite()
		return
	}
	_ = c.Close()
}

func (p *Proxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tunnels == nil {
		return false
	}
	p.tunnels[c] = struct{}{}
	return true
}

func (p *Proxy) untrack(c net.Conn) {
	p.mu.Lock()
	delete(p.tunnels, c)
	p.mu.Unlock()
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
