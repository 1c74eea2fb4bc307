package browserproc

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// Proxy is a proxy server the browser sends its connections through
// (--proxy-server), the destinations that go around it (--proxy-bypass) and
// the credentials it asks for. Chromium takes no credentials on its command
// line: the core answers the proxy's challenges over DevTools
// (Fetch.authRequired), so they are never in a process list or a log.
type Proxy struct {
	// Server is scheme://host:port as Chromium's --proxy-server takes it,
	// without credentials (http, https, socks4 or socks5; http when the
	// user named none).
	Server string
	// Bypass is Chromium's --proxy-bypass-list: hosts, *.domain patterns,
	// IP ranges and <local>, separated by ";".
	Bypass string
	// User and Password answer the proxy's authentication challenges; empty
	// without.
	User, Password string
}

// ParseProxy reads --proxy-server (an address, with or without scheme, and
// user:password@ in it or given apart in user and password) and
// --proxy-bypass (comma- or semicolon-separated). It returns nil for an empty
// server. Its errors name the flag to fix.
func ParseProxy(server, bypass, user, password string) (*Proxy, error) {
	server = strings.TrimSpace(server)
	if server == "" {
		if bypass != "" || user != "" || password != "" {
			return nil, fmt.Errorf("--proxy-bypass, --proxy-user and --proxy-password go with --proxy-server: name the proxy too, e.g. --proxy-server http://proxy.internal:3128")
		}
		return nil, nil
	}
	raw := server
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" {
		return nil, fmt.Errorf("--proxy-server %q is not a proxy address: give scheme://host:port, e.g. http://proxy.internal:3128 or socks5://127.0.0.1:1080", redactUserinfo(server))
	}
	scheme := strings.ToLower(u.Scheme)
	switch scheme {
	case "http", "https", "socks4", "socks5":
	default:
		return nil, fmt.Errorf("--proxy-server %s: the scheme must be http, https, socks4 or socks5", redactUserinfo(server))
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("--proxy-server %s: a proxy is a host and port, with no path or query", redactUserinfo(server))
	}
	if u.Port() != "" {
		if _, err := net.LookupPort("tcp", u.Port()); err != nil {
			return nil, fmt.Errorf("--proxy-server %s: %q is not a port", redactUserinfo(server), u.Port())
		}
	}
	p := &Proxy{Server: scheme + "://" + u.Host, User: user, Password: password}
	if u.User != nil {
		if user != "" || password != "" {
			return nil, fmt.Errorf("--proxy-server %s names credentials, and so do --proxy-user or --proxy-password: give them once", redactUserinfo(server))
		}
		p.User = u.User.Username()
		p.Password, _ = u.User.Password()
	}
	if p.Password != "" && p.User == "" {
		return nil, fmt.Errorf("--proxy-password without a user: give --proxy-user (or user:password@ in --proxy-server)")
	}
	if p.User != "" && strings.HasPrefix(scheme, "socks") {
		return nil, fmt.Errorf("--proxy-server %s: Chromium cannot sign in to a SOCKS proxy; use an HTTP proxy for credentials, or a SOCKS proxy that needs none", redactUserinfo(server))
	}
	var rules []string
	for _, r := range strings.FieldsFunc(bypass, func(c rune) bool { return c == ',' || c == ';' }) {
		if r = strings.TrimSpace(r); r != "" {
			rules = append(rules, r)
		}
	}
	p.Bypass = strings.Join(rules, ";")
	return p, nil
}

// HasCredentials reports whether the proxy asks for a user (false for nil).
func (p *Proxy) HasCredentials() bool { return p != nil && p.User != "" }

// flags are the browser's flags that send its connections through p (none
// for nil).
func (p *Proxy) flags() []string {
	if p == nil {
		return nil
	}
	out := []string{"--proxy-server=" + p.Server}
	if p.Bypass != "" {
		out = append(out, "--proxy-bypass-list="+p.Bypass)
	}
	return out
}

// String is the proxy as logs and messages may show it: no credentials.
func (p *Proxy) String() string {
	if p == nil {
		return ""
	}
	if p.User != "" {
		return p.Server + " (user " + p.User + ")"
	}
	return p.Server
}

// redactUserinfo hides a password in a proxy address the user gave, for an
// error message.
func redactUserinfo(s string) string {
	at := strings.LastIndex(s, "@")
	if at < 0 {
		return s
	}
	start := strings.Index(s, "://")
	if start < 0 {
		start = 0
	} else {
		start += 3
	}
	if start > at {
		return s
	}
	user, _, _ := strings.Cut(s[start:at], ":")
	return s[:start] + user + ":***" + s[at:]
}
