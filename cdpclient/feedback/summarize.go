package feedback

import (
	"net/url"
	"strings"
	"unicode/utf8"
)

// Request is one network request as observed during an action.
type Request struct {
	Method  string
	URL     string
	Type    string // CDP resource type: Document, XHR, Fetch, Script, Image, …
	Status  int
	Failed  string
	Blocked string
}

const (
	maxErrors   = 3
	maxErrorLen = 160
	maxNet      = 8
)

// Errors keeps at most three distinct messages, each cut to its first line and
// 160 characters.
func Errors(msgs []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range msgs {
		line, _, _ := strings.Cut(strings.TrimSpace(m), "\n")
		line = Truncate(line, maxErrorLen)
		if line == "" || seen[line] {
			continue
		}
		seen[line] = true
		out = append(out, line)
		if len(out) == maxErrors {
			break
		}
	}
	return out
}

// significant reports whether a request is worth a model's attention: documents,
// API calls, and anything that failed.
func significant(r Request) bool {
	if r.Failed != "" || r.Blocked != "" || r.Status >= 400 {
		return true
	}
	switch r.Type {
	case "Document", "XHR", "Fetch", "EventSource", "WebSocket", "Other", "":
		return true
	}
	return false
}

// NetList summarises requests: significant ones only, at most eight, URLs
// relative to origin ("http://host:port") when they share it.
func NetList(reqs []Request, origin string) []Net {
	var out []Net
	for _, r := range reqs {
		if !significant(r) || strings.HasPrefix(r.URL, "data:") || strings.HasSuffix(r.URL, "/favicon.ico") {
			continue
		}
		n := Net{U: RelURL(r.URL, origin), S: r.Status}
		if r.Method != "" && r.Method != "GET" {
			n.M = r.Method
		}
		switch {
		case r.Blocked != "":
			n.E = "blocked:" + r.Blocked
		case r.Failed != "":
			n.E = r.Failed
		}
		out = append(out, n)
		if len(out) == maxNet {
			break
		}
	}
	return out
}

// RelURL shortens u to its path, query and fragment when it is on origin.
func RelURL(u, origin string) string {
	if origin == "" || !strings.HasPrefix(u, origin) {
		return Truncate(u, 200)
	}
	rest := u[len(origin):]
	if rest == "" {
		return "/"
	}
	if rest[0] != '/' && rest[0] != '?' && rest[0] != '#' {
		return Truncate(u, 200)
	}
	return Truncate(rest, 200)
}

// Origin returns scheme://host[:port] of u, or "" when u has none (about:blank).
func Origin(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return ""
	}
	return p.Scheme + "://" + p.Host
}

// Truncate cuts s to at most n runes, marking the cut with "…".
func Truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
