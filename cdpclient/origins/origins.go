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
	for _, r := range host {
		if r > 0x7f {
			return bad("write an international name in its punycode form (xn--…), as browsers send it")
		}
	}
	switch {
	case host == "*":
		p.any = true
	case strings.HasPrefix(host, "*."):
		p.sub, p.host = true, host[2:]
		if p.host == "" || p.host == "." || strings.Contains(p.host, "*") {
			return bad("a wildcard may only start the host, as in *.example.com")
		}
	case strings.Contains(host, "*"):
		return bad("a wildcard may only start the host, as in *.example.com")
	case host == "" || host == ".":
		return bad("no host")
	default:
		p.host = canonicalHost(host)
	}
	if p.sub {
		p.host = canonicalHost(p.host)
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
	host := canonicalHost(strings.ToLower(u.Hostname()))
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
	defaultPort := ""
	switch scheme {
	case "http":
		defaultPort = "80"
	case "https":
		defaultPort = "443"
	}
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

// List is a policy: allowed patterns (none means all) minus blocked ones, and
// whether local files and the browser's own pages may be opened.
type List struct {
	Allowed []Pattern
	Blocked []Pattern
	// AllowFile permits file: URLs; AllowBrowser permits chrome:, view-source:
	// and the like. Both are refused by default.
	AllowFile, AllowBrowser bool
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

// Empty reports whether the list restricts no origin.
func (l *List) Empty() bool { return l == nil || len(l.Allowed)+len(l.Blocked) == 0 }

// browserSchemes are the browser's own pages and tools.
var browserSchemes = map[string]bool{"chrome": true, "chrome-extension": true, "chrome-untrusted": true,
	"devtools": true, "view-source": true, "chrome-search": true, "edge": true}

// CheckScheme refuses URLs of schemes that reach local files or the browser's
// own pages unless allowed; web and data URLs pass (their origin is Check's job).
func (l *List) CheckScheme(u *url.URL) error {
	scheme := strings.ToLower(u.Scheme)
	switch {
	case scheme == "file" && (l == nil || !l.AllowFile):
		return fmt.Errorf("file: URLs are refused (--allow-file-urls allows them)")
	case browserSchemes[scheme] && (l == nil || !l.AllowBrowser):
		return fmt.Errorf("%s: URLs are refused (--allow-browser-urls allows them)", scheme)
	case scheme == "about" && !strings.EqualFold(u.Opaque, "blank") && !strings.EqualFold(u.Opaque, "srcdoc") && (l == nil || !l.AllowBrowser):
		return fmt.Errorf("about:%s is a browser page and is refused (--allow-browser-urls allows it)", u.Opaque)
	}
	return nil
}

// Check returns nil if the URL may be requested, or an error saying which rule
// refuses it. URLs that reach no origin (about:blank, data:, blob:) are allowed;
// local files and browser pages only when the list allows them; other non-web
// schemes are refused when any origin rule is set.
func (l *List) Check(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("%q is not a URL", raw)
	}
	if err := l.CheckScheme(u); err != nil {
		return err
	}
	if l.Empty() {
		return nil
	}
	switch strings.ToLower(u.Scheme) {
	case "about", "data", "blob":
		return nil
	case "file":
		return nil // allowed by CheckScheme
	case "http", "https", "ws", "wss":
	default:
		if browserSchemes[strings.ToLower(u.Scheme)] {
			return nil
		}
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

// CheckBlockedAddr refuses an address a destination resolved to when a blocked
// pattern names it (by IP): a blocked address is not reached under another
// name (metadata.example resolving to 169.254.169.254, a name that points at
// loopback). The scheme is not known at that point, so http and https count.
func (l *List) CheckBlockedAddr(ip net.IP, port string) error {
	if l.Empty() {
		return nil
	}
	host := ip.String()
	if ip.To4() == nil {
		host = "[" + host + "]"
	}
	for _, scheme := range []string{"http", "https"} {
		u := &url.URL{Scheme: scheme, Host: host + ":" + port}
		for _, p := range l.Blocked {
			if p.Match(u) {
				return fmt.Errorf("%s is blocked (--blocked-origins %s)", net.JoinHostPort(ip.String(), port), p)
			}
		}
	}
	return nil
}
