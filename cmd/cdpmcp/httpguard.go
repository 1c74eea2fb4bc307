package main

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient/browserproc"
	"github.com/cdpmcp/cdpmcp/internal/tenant"
)

// listenAddr completes an --http address: no host means 127.0.0.1. A host that
// is not loopback is refused without an auth token, since anyone who can reach
// it could drive the browser.
func listenAddr(addr string, tokens bool) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--http %q: give HOST:PORT, e.g. 127.0.0.1:8931 (%v)", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	if !browserproc.IsLoopbackHost(host) && !tokens {
		return "", fmt.Errorf("--http %s listens beyond this machine; set --auth-token too, or use 127.0.0.1", addr)
	}
	return net.JoinHostPort(host, port), nil
}

// guardHTTP refuses requests a local MCP server must not answer: ones from a web
// page of another origin (an Origin header that is neither loopback nor this
// server), and, with tokens set, ones without "Authorization: Bearer <token>"
// of one of them. A request goes on acting for its token's tenant.
// mcp-go itself checks the Host header against DNS rebinding.
func guardHTTP(next http.Handler, p principals) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "" && !allowedOrigin(o, r.Host) {
			http.Error(w, "Forbidden: requests from web pages of other origins are refused", http.StatusForbidden)
			return
		}
		if !p.empty() {
			got, ok := bearerToken(r.Header.Get("Authorization"))
			name, known := p.lookup(got)
			if !ok || !known {
				w.Header().Set("WWW-Authenticate", `Bearer realm="cdpmcp"`)
				http.Error(w, "Unauthorized: send Authorization: Bearer <token>", http.StatusUnauthorized)
				return
			}
			r = r.WithContext(tenant.With(r.Context(), name))
		}
		next.ServeHTTP(w, r)
	})
}

// bearerToken is the token of an Authorization header of the Bearer scheme,
// whose name is case-insensitive (RFC 7235): "bearer TOKEN" too.
func bearerToken(h string) (string, bool) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(h), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	return strings.TrimSpace(token), true
}

func allowedOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false // includes "null"
	}
	return browserproc.IsLoopbackHost(u.Hostname()) || strings.EqualFold(u.Host, host)
}

// connectHint is what the start-up log tells a user to connect with: the
// URL and a command to copy, which sends the Authorization header when tokens
// are required (a client without it gets 401). A token's value is never
// printed: TOKEN stands for it.
func connectHint(url string, p principals) []any {
	if p.empty() {
		return []any{"url", url, "connect", "claude mcp add --transport http cdpmcp " + url}
	}
	return []any{"url", url, "connect", "claude mcp add --transport http cdpmcp " + url + ` --header "Authorization: Bearer TOKEN"`,
		"auth", "every request needs the header Authorization: Bearer TOKEN, TOKEN one given with --auth-token or in --auth-tokens-file"}
}
