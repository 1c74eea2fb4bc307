package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/network"
	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
	"github.com/mafredri/cdp"
	cdpnetwork "github.com/mafredri/cdp/protocol/network"
)

// SecurityReport is what a security audit found.
type SecurityReport struct {
	URL string `json:"url"`
	// State is the browser's verdict on the document's transport: secure,
	// insecure, neutral (or "loopback", which browsers treat as secure).
	State        string              `json:"state"`
	TLS          *network.TLSDetails `json:"tls,omitempty"`
	Headers      map[string]string   `json:"headers"` // the security headers present
	Cookies      []CookieInfo        `json:"cookies,omitempty"`
	ThirdParty   []string            `json:"thirdParty,omitempty"` // origins of other sites contacted
	Console      []string            `json:"console,omitempty"`    // security messages and issues
	MixedContent []string            `json:"mixedContent,omitempty"`
	Findings     []Finding           `json:"findings"`
}

// CookieInfo is a cookie the page can see, without its value.
type CookieInfo struct {
	Name     string `json:"name"`
	Domain   string `json:"domain"`
	Secure   bool   `json:"secure"`
	HTTPOnly bool   `json:"httpOnly"`
	SameSite string `json:"sameSite,omitempty"`
}

var securityHeaders = []string{"content-security-policy", "content-security-policy-report-only", "strict-transport-security",
	"x-frame-options", "x-content-type-options", "referrer-policy", "permissions-policy",
	"cross-origin-opener-policy", "cross-origin-embedder-policy", "cross-origin-resource-policy"}

// Security reviews the page's current document: its transport, the security
// headers of its response, the cookies it can see, the other sites it
// contacted and the security messages and issues the browser reported. It
// reads what the browser recorded; nothing is requested again.
func Security(ctx context.Context, p *cdpclient.Page) (*SecurityReport, error) {
	if err := p.Usable(); err != nil {
		return nil, err
	}
	u, err := url.Parse(p.URL())
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, &cdpclient.Error{Code: cdpclient.CodeNavigation, Msg: "the page is not a web page (" + p.URL() + ")", Hint: "navigate to an http(s) page first"}
	}
	rep := &SecurityReport{URL: p.URL(), Headers: map[string]string{}}
	d := p.Door()
	var doc *network.ResponseMeta
	since := 0
	for _, e := range d.Logs().Network(0) {
		if !d.Logs().MainDocument(e) {
			continue
		}
		if r := network.DocumentResponse(p, e); r != nil {
			doc, since = r, e.Seq-1 // the latest document; redirects have no body
		}
	}
	if doc == nil {
		return nil, &cdpclient.Error{Code: cdpclient.CodeNavigation, Msg: "cdpmcp did not see this document's response", Hint: "reload or navigate to the page, then audit it"}
	}
	for _, h := range securityHeaders {
		if v, ok := doc.Headers[h]; ok {
			rep.Headers[h] = v
		}
	}
	rep.State, rep.TLS = doc.SecurityState, doc.TLS
	if loopback(u.Hostname()) && u.Scheme == "http" {
		rep.State = "loopback"
	}
	rep.Findings = append(rep.Findings, transportFindings(u, rep)...)
	rep.Findings = append(rep.Findings, headerFindings(u, rep.Headers)...)
	if err := auditCookies(ctx, d, rep); err != nil {
		return nil, err
	}
	auditThirdParties(ctx, p, u, since, rep)
	auditSecurityMessages(ctx, d, since, rep)
	SortFindings(rep.Findings)
	return rep, nil
}

func loopback(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// transportFindings judge how the document travelled: plain HTTP off
// loopback, old TLS, a certificate about to expire.
func transportFindings(u *url.URL, rep *SecurityReport) []Finding {
	var out []Finding
	if u.Scheme == "http" && rep.State != "loopback" {
		out = append(out, Finding{Rule: "insecure-transport", Severity: SeverityCritical, URL: u.String(),
			Msg: "the page is served over plain HTTP: anyone on the network can read and change it; serve it over HTTPS"})
	}
	if t := rep.TLS; t != nil {
		if t.Protocol == "TLS 1.0" || t.Protocol == "TLS 1.1" || strings.HasPrefix(t.Protocol, "SSL") {
			out = append(out, Finding{Rule: "tls-version", Severity: SeveritySerious, URL: u.String(), Msg: t.Protocol + " is obsolete: offer TLS 1.2 or 1.3"})
		}
		if left := time.Until(time.Unix(int64(t.ValidTo), 0)); t.ValidTo > 0 && left < 14*24*time.Hour {
			out = append(out, Finding{Rule: "tls-certificate", Severity: SeveritySerious, URL: u.String(),
				Msg: fmt.Sprintf("the certificate expires in %.0f days", left.Hours()/24)})
		}
	}
	if rep.State == "insecure" && u.Scheme == "https" {
		out = append(out, Finding{Rule: "insecure-transport", Severity: SeveritySerious, URL: u.String(),
			Msg: "the browser rates this HTTPS page insecure (a certificate error, or mixed content)"})
	}
	return out
}

// auditCookies lists the cookies of the page's URLs and flags missing
// Secure, HttpOnly and SameSite attributes. Values are never read into the
// report.
func auditCookies(ctx context.Context, d cdpclient.Door, rep *SecurityReport) error {
	var cookies *cdpnetwork.GetCookiesReply
	_, err := d.Run(ctx, cdpclient.ModeRead, func(ctx context.Context, c *cdp.Client) error {
		var err error
		cookies, err = c.Network.GetCookies(ctx, cdpnetwork.NewGetCookiesArgs().SetURLs([]string{rep.URL}))
		return err
	})
	if err != nil {
		return fmt.Errorf("read cookies: %w", err)
	}
	for _, c := range cookies.Cookies {
		ci := CookieInfo{Name: c.Name, Domain: c.Domain, Secure: c.Secure, HTTPOnly: c.HTTPOnly, SameSite: string(c.SameSite)}
		rep.Cookies = append(rep.Cookies, ci)
		var missing []string
		if !c.Secure {
			missing = append(missing, "Secure")
		}
		if !c.HTTPOnly {
			missing = append(missing, "HttpOnly")
		}
		if c.SameSite == "" {
			missing = append(missing, "SameSite")
		}
		if len(missing) == 0 {
			continue
		}
		sev := SeverityMinor
		if !c.Secure || (c.SameSite == "None" && !c.Secure) {
			sev = SeverityModerate
		}
		rep.Findings = append(rep.Findings, Finding{Rule: "cookie-flags", Severity: sev, URL: rep.URL,
			Msg: fmt.Sprintf("cookie %q (%s) lacks %s", c.Name, c.Domain, strings.Join(missing, ", "))})
	}
	return nil
}

// auditThirdParties lists the origins of other sites the page's requests
// went to, the site as the browser reckons it (Network.fetchSchemefulSite).
func auditThirdParties(ctx context.Context, p *cdpclient.Page, u *url.URL, since int, rep *SecurityReport) {
	sites := map[string]string{}
	site := func(origin string) string {
		if s, ok := sites[origin]; ok {
			return s
		}
		var r struct {
			SchemefulSite string `json:"schemefulSite"`
		}
		s := origin
		params, _ := json.Marshal(map[string]string{"origin": origin})
		if out, err := p.Raw(ctx, "Network.fetchSchemefulSite", params); err == nil && json.Unmarshal(out, &r) == nil && r.SchemefulSite != "" {
			s = r.SchemefulSite
		}
		sites[origin] = s
		return s
	}
	own := site(u.Scheme + "://" + u.Host)
	seen := map[string]bool{}
	for _, e := range p.Door().Logs().Network(since) {
		ru, err := url.Parse(e.URL)
		if err != nil || (ru.Scheme != "http" && ru.Scheme != "https" && ru.Scheme != "ws" && ru.Scheme != "wss") || e.Blocked != "" {
			continue
		}
		if u.Scheme == "https" && (ru.Scheme == "http" || ru.Scheme == "ws") {
			rep.MixedContent = append(rep.MixedContent, e.URL)
		}
		origin := ru.Scheme + "://" + ru.Host
		if seen[origin] || site(origin) == own {
			continue
		}
		seen[origin] = true
		rep.ThirdParty = append(rep.ThirdParty, origin)
	}
	sort.Strings(rep.ThirdParty)
	for _, o := range rep.ThirdParty {
		rep.Findings = append(rep.Findings, Finding{Rule: "third-party", Severity: SeverityMinor, URL: o,
			Msg: "the page contacted another site: it learns the visitor's address and the page's URL (Referer)"})
	}
	for _, m := range rep.MixedContent {
		rep.Findings = append(rep.Findings, Finding{Rule: "mixed-content", Severity: SeveritySerious, URL: m,
			Msg: "an HTTPS page loaded this over plain HTTP"})
	}
}

// securityMessage picks console messages about security.
var securityMessage = regexp.MustCompile(`(?i)content security policy|mixed content|refused to|x-frame-options|frame-ancestors|cors policy|insecure|certificate|samesite|cookie|permissions.policy|integrity|cross-origin`)

// auditSecurityMessages collects the page's console messages about security
// and the issues the browser raised (DevTools' Issues panel: CSP violations,
// mixed content, cookie problems).
func auditSecurityMessages(ctx context.Context, d cdpclient.Door, since int, rep *SecurityReport) {
	seen := map[string]bool{}
	add := func(msg, rule string) {
		msg = strings.TrimSpace(msg)
		if msg == "" || seen[msg] {
			return
		}
		seen[msg] = true
		rep.Console = append(rep.Console, msg)
		rep.Findings = append(rep.Findings, Finding{Rule: rule, Severity: SeverityModerate, URL: rep.URL, Msg: truncate(msg, 300)})
	}
	for _, e := range d.Logs().Console(since) {
		if (e.Level == "error" || e.Level == "warning") && !e.Network && securityMessage.MatchString(e.Text) {
			add(e.Text, "console-security")
		}
	}
	for _, is := range securityIssues(ctx, d) {
		// An issue the console already told of is not told twice.
		if !strings.Contains(strings.ToLower(strings.Join(rep.Console, "\n")), strings.ToLower(is.kind)) {
			add("issue: "+is.what, "browser-issue")
		}
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:secrets.Cut(s, n)] + "…"
}
