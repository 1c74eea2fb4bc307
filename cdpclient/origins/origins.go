// Package origins parses origin patterns such as "https://*.example.com" and
// "http://127.0.0.1:*" and decides whether a URL's origin is allowed by a list of
// allowed and blocked patterns. It is pure: the request guard in cdpclient and the
// navigate check in tools both use it.
package origins

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// Pattern matches origins: a scheme ("*" for http and https), a host (exact, "*"
// for any, or "*.example.com" for the subdomains of example.com, not example.com
// itself) and a port ("*" for any; none means the scheme's default port).
type Pattern struct {
	scheme string // "http", "https" or "*"
	host   string // lower case, without the "*." of a subdomain pattern
	sub    bool   // host matches subdomains of host
	any    bool   // host matches every host
	port   string // "*" or a number
	raw    string
}

func (p Pattern) String() string { return p.raw }

// Parse reads one pattern. Errors say what a valid pattern looks like.
func Parse(s string) (Pattern, error) {
	raw := strings.TrimSpace(s)
	bad := func(why string) (Pattern, error) {
		return Pattern{}, fmt.Errorf("origin pattern %q: %s (write e.g. https://example.com, https://*.example.com or http://127.0.0.1:*)", raw, why)
	}
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return bad("no scheme")
	}
	scheme = strings.ToLower(scheme)
	switch scheme {
	case "http", "https", "*":
	default:
		return bad("the scheme must be http, https or *")
	}
	if rest == "" || strings.ContainsAny(rest, "/?#@ \t") {
		return bad("give only scheme, host and port, with no path")
	}
	p := Pattern{scheme: scheme, raw: raw}
	host, port := rest, ""
	if strings.HasPrefix(rest, "[") { // IPv6
		end := strings.Index(rest, "]")
		if end < 0 {
			return bad("unclosed [")
		}
		host, port = rest[:end+1], strings.TrimPrefix(rest[end+1:], ":")
		if rest[end+1:] != "" && !strings.HasPrefix(rest[end+1:], ":") {
			return bad("unexpected text after ]")
		}
	} else if h, pt, ok := strings.Cut(rest, ":"); ok {
		host, port = h, pt
		if port == "" {
			return bad("empty port")
		}
	}
	host = strings.ToLower(host)
	switch {
	case host == "*":
		p.any = true
	case strings.HasPrefix(host, "*."):
		p.sub, p.host = true, host[2:]
		if p.host == "" || strings.Contains(p.host, "*") {
			return bad("a wildcard may only start the host, as in *.example.com")
		}
	case strings.Contains(host, "*"):
		return bad("a wildcard may only start the host, as in *.example.com")
	case host == "":
		return bad("no host")
	default:
		p.host = host
	}
	if port != "" && port != "*" {
		for _, r := range port {
			if r < '0' || r > '9' {
				return bad("the port must be a number or *")
			}
		}
		if len(port) > 5 {
			return bad("the port is out of range")
		}
	}
	p.port = port
	return p, nil
}

// Match reports whether u's origin matches the pattern. ws and wss count as http
// and https.
func (p Pattern) Match(u *url.URL) bool {
	scheme := strings.ToLower(u.Scheme)
	switch scheme {
	case "ws":
		scheme = "http"
	case "wss":
		scheme = "https"
	}
	if scheme != "http" && scheme != "https" {
		return false
	}
	if p.scheme != "*" && p.scheme != scheme {
		return false
	}
	host := strings.ToLower(u.Hostname())
	if ip := net.ParseIP(host); ip != nil && strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	switch {
	case p.any:
	case p.sub:
		if !strings.HasSuffix(host, "."+p.host) {
			return false
		}
	default:
		if host != p.host {
			return false
		}
	}
	defaultPort := map[string]string{"http": "80", "https": "443"}[scheme]
	port := u.Port()
	if port == "" {
		port = defaultPort
	}
	switch p.port {
	case "*":
		return true
	case "":
		return port == defaultPort
	}
	return port == p.port
}

// List is a policy: allowed patterns (none means all) minus blocked ones.
type List struct {
	Allowed []Pattern
	Blocked []Pattern
}

// NewList parses both lists.
func NewList(allowed, blocked []string) (*List, error) {
	l := &List{}
	for _, s := range allowed {
		p, err := Parse(s)
		if err != nil {
			return nil, err
		}
		l.Allowed = append(l.Allowed, p)
	}
	for _, s := range blocked {
		p, err := Parse(s)
		if err != nil {
			return nil, err
		}
		l.Blocked = append(l.Blocked, p)
	}
	return l, nil
}

// Empty reports whether the list restricts nothing.
func (l *List) Empty() bool { return l == nil || len(l.Allowed)+len(l.Blocked) == 0 }

// Check returns nil if the URL may be requested, or an error saying which rule
// refuses it. URLs that reach no origin (about:, data:, blob:) are allowed;
// other non-web schemes are refused when any rule is set.
func (l *List) Check(raw string) error {
	if l.Empty() {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("%q is not a URL", raw)
	}
	switch strings.ToLower(u.Scheme) {
	case "about", "data", "blob":
		return nil
	case "http", "https", "ws", "wss":
	default:
		return fmt.Errorf("%s: URLs are outside the allowed origins", u.Scheme)
	}
	for _, p := range l.Blocked {
		if p.Match(u) {
			return fmt.Errorf("%s is blocked (--blocked-origins %s)", originOf(u), p)
		}
	}
	if len(l.Allowed) == 0 {
		return nil
	}
	for _, p := range l.Allowed {
		if p.Match(u) {
			return nil
		}
	}
	return fmt.Errorf("%s is not among the allowed origins", originOf(u))
}

func originOf(u *url.URL) string { return u.Scheme + "://" + u.Host }
