package egress

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"
)

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
