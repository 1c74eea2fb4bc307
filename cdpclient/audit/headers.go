package audit

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// headerFindings judges a document's security headers: what is missing and
// what is weak. h holds the headers present, names in lower case.
func headerFindings(u *url.URL, h map[string]string) []Finding {
	var out []Finding
	add := func(rule, sev, msg string) {
		out = append(out, Finding{Rule: rule, Severity: sev, URL: u.String(), Msg: msg})
	}
	csp, hasCSP := h["content-security-policy"]
	if !hasCSP {
		msg := "no Content-Security-Policy: any injected script runs; start with default-src 'self'; object-src 'none'; base-uri 'self'"
		if _, ro := h["content-security-policy-report-only"]; ro {
			msg = "Content-Security-Policy is report-only: it blocks nothing"
		}
		add("header-csp", SeveritySerious, msg)
	} else if weak := cspWeaknesses(csp); len(weak) > 0 {
		add("header-csp", SeverityModerate, "weak Content-Security-Policy: "+strings.Join(weak, "; "))
	}
	if u.Scheme == "https" {
		hsts, ok := h["strict-transport-security"]
		switch age := hstsMaxAge(hsts); {
		case !ok:
			add("header-hsts", SeveritySerious, "no Strict-Transport-Security: a first visit over http can be intercepted; send max-age=31536000")
		case age < 15552000:
			add("header-hsts", SeverityModerate, fmt.Sprintf("Strict-Transport-Security max-age=%d is under six months", age))
		}
	}
	xfo := strings.ToLower(strings.TrimSpace(h["x-frame-options"]))
	if !strings.Contains(strings.ToLower(csp), "frame-ancestors") && xfo != "deny" && xfo != "sameorigin" {
		add("header-frame", SeverityModerate, "no X-Frame-Options or CSP frame-ancestors: other sites can frame the page (clickjacking)")
	}
	if strings.ToLower(strings.TrimSpace(h["x-content-type-options"])) != "nosniff" {
		add("header-nosniff", SeverityMinor, "no X-Content-Type-Options: nosniff: the browser may guess content types")
	}
	switch rp := strings.ToLower(strings.TrimSpace(lastToken(h["referrer-policy"]))); rp {
	case "":
		add("header-referrer", SeverityMinor, "no Referrer-Policy: the browser default applies; set strict-origin-when-cross-origin or stricter")
	case "unsafe-url", "no-referrer-when-downgrade":
		add("header-referrer", SeverityModerate, "Referrer-Policy "+rp+" sends full URLs (with their query) to other sites")
	}
	if _, ok := h["permissions-policy"]; !ok {
		add("header-permissions", SeverityMinor, "no Permissions-Policy: embedded content may ask for camera, microphone, location…")
	}
	return out
}

// cspWeaknesses lists what lets script run despite a policy: sources that
// allow any host or scheme, unsafe-inline without nonces or hashes,
// unsafe-eval, and no restriction on plugins or <base>.
func cspWeaknesses(policy string) []string {
	dirs := map[string][]string{}
	for _, d := range strings.Split(policy, ";") {
		f := strings.Fields(strings.ToLower(d))
		if len(f) > 0 {
			if _, dup := dirs[f[0]]; !dup {
				dirs[f[0]] = f[1:]
			}
		}
	}
	var out []string
	script, ok := dirs["script-src"]
	if !ok {
		script, ok = dirs["default-src"]
	}
	if !ok {
		out = append(out, "no script-src or default-src: scripts from anywhere run")
	} else {
		nonce := false
		for _, s := range script {
			if strings.HasPrefix(s, "'nonce-") || strings.HasPrefix(s, "'sha") || s == "'strict-dynamic'" {
				nonce = true
			}
		}
		for _, s := range script {
			switch s {
			case "*", "http:", "https:", "data:", "blob:":
				out = append(out, "script-src allows "+s)
			case "'unsafe-inline'":
				if !nonce {
					out = append(out, "script-src allows 'unsafe-inline'")
				}
			case "'unsafe-eval'":
				out = append(out, "script-src allows 'unsafe-eval'")
			}
		}
	}
	if _, ok := dirs["object-src"]; !ok {
		if def, ok := dirs["default-src"]; !ok || !restrictive(def) {
			out = append(out, "no object-src 'none'")
		}
	}
	if _, ok := dirs["base-uri"]; !ok {
		out = append(out, "no base-uri")
	}
	return out
}

func restrictive(srcs []string) bool {
	for _, s := range srcs {
		if s == "*" || s == "http:" || s == "https:" || s == "data:" {
			return false
		}
	}
	return true
}

func hstsMaxAge(v string) int {
	for _, part := range strings.Split(v, ";") {
		k, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		if ok && strings.EqualFold(k, "max-age") {
			n, err := strconv.Atoi(strings.Trim(val, `" `))
			if err == nil {
				return n
			}
		}
	}
	return 0
}

// lastToken is the last value of a comma-separated header (the one that
// counts for Referrer-Policy).
func lastToken(v string) string {
	parts := strings.Split(v, ",")
	return parts[len(parts)-1]
}
