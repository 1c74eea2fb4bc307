package feedback

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
)

// Request is one network request as observed during an action.
type Request struct {
	Method  string
	URL     string
	Type    string // CDP resource type: Document, XHR, Fetch, Script, Image, …
	Status  int
	Failed  string
	Blocked string
	// Pending is a request with no answer yet.
	Pending bool
	// Main is a main-frame document request.
	Main bool
}

const (
	maxErrors   = 3
	maxErrorLen = 90
	maxNet      = 6
)

// Errors keeps at most three distinct messages, each cut to its first line and
// 90 characters, URLs on origin made paths.
func Errors(msgs []string, origin string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range msgs {
		line, _, _ := strings.Cut(strings.TrimSpace(m), "\n")
		if origin != "" {
			line = strings.ReplaceAll(line, origin+"/", "/")
		}
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

// api reports the page's own calls: fetch, XHR, event streams, websockets.
func api(r Request) bool {
	switch r.Type {
	case "XHR", "Fetch", "EventSource", "WebSocket":
		return true
	}
	return false
}

func failed(r Request) bool { return r.Failed != "" || r.Blocked != "" || r.Status >= 400 }

// Summarize keeps the requests a model acts on and counts the rest. Listed:
// main-frame documents (with their redirects when navigating), the page's own
// calls that failed, answered ≥ 400 or are still pending, and, after an action
// other than a navigation, its successful calls too (what a click sent). Failed
// loads of subresources (images, styles, scripts, fonts, frames…) become one
// count by kind. At most six are listed; URLs on origin are paths, others are
// shortened.
func Summarize(reqs []Request, origin string, navigation bool) ([]Net, string) {
	var out []Net
	kinds := map[string]int{}
	dropped := 0
	for _, r := range reqs {
		if strings.HasPrefix(r.URL, "data:") || strings.HasPrefix(r.URL, "blob:") || strings.HasSuffix(r.URL, "/favicon.ico") {
			continue
		}
		keep := false
		switch {
		case r.Main:
			// A document that arrived is the new URL (and status) delta shows
			// already; the redirects on the way and failures are not.
			keep = r.Status >= 300 && r.Status < 400 || r.Failed != "" || r.Blocked != "" || r.Pending
		case api(r):
			keep = failed(r) || r.Pending || !navigation
		case failed(r):
			kinds[kindOf(r.Type)]++
			continue
		}
		if !keep {
			continue
		}
		if len(out) == maxNet {
			dropped++
			continue
		}
		n := Net{U: ShortURL(r.URL, origin), S: r.Status, Pending: r.Pending}
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
	}
	return out, moreText(kinds, dropped)
}

// moreText renders the counts Summarize left out: "+23 failed: 12 img, 6 css, 5
// script", plus requests beyond the list's cap.
func moreText(kinds map[string]int, dropped int) string {
	total := 0
	var parts []string
	for k, n := range kinds {
		total += n
		parts = append(parts, fmt.Sprintf("%d %s", n, k))
	}
	sort.Slice(parts, func(i, j int) bool {
		var a, b int
		fmt.Sscan(parts[i], &a)
		fmt.Sscan(parts[j], &b)
		return a > b || a == b && parts[i] < parts[j]
	})
	var s string
	if total > 0 {
		s = fmt.Sprintf("+%d failed: %s", total, strings.Join(parts, ", "))
	}
	if dropped > 0 {
		if s != "" {
			s += "; "
		}
		s += fmt.Sprintf("+%d more requests (see network)", dropped)
	}
	return s
}

func kindOf(t string) string {
	switch t {
	case "Image":
		return "img"
	case "Stylesheet":
		return "css"
	case "Script":
		return "script"
	case "Font":
		return "font"
	case "Media":
		return "media"
	case "Document":
		return "frame"
	}
	return "other"
}

// NetList lists requests as Summarize does for an action, without the counts.
func NetList(reqs []Request, origin string) []Net {
	out, _ := Summarize(reqs, origin, false)
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

// ShortURL is how a request's URL reads in feedback: a path (and query) on
// origin, else the other origin with its path cut to about 40 characters.
func ShortURL(u, origin string) string {
	if r := RelURL(u, origin); r != u && len(r) <= 200 {
		return Truncate(r, 80)
	}
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return Truncate(u, 80)
	}
	path := p.EscapedPath()
	if utf8.RuneCountInString(path) > 40 {
		i := strings.LastIndexByte(path, '/')
		tail := path[i:]
		if utf8.RuneCountInString(tail) > 30 {
			tail = "/" + Truncate(tail[1:], 29)
		}
		path = "/…" + tail
	}
	return p.Scheme + "://" + p.Host + path
}

// Origin returns scheme://host[:port] of u, or "" when u has none (about:blank).
func Origin(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return ""
	}
	return p.Scheme + "://" + p.Host
}

// Truncate cuts s to at most n runes, marking the cut with "…". It never
// cuts a secret in two: the cut moves to the secret's start.
func Truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return s[:secrets.CutRunes(s, n-1)] + "…"
}
