package actions

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/audit"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
)

// GroupAudit is the capability group of the audit tools: offered when asked
// for, so the default tool list stays small.
const GroupAudit = "audit"

// auditShots is how many elements with findings an accessibility audit
// pictures for the report.
const auditShots = 12

// auditHints are the hints of the audits that only read.
var auditHints = Hints{ReadOnly: true, Idempotent: true, OpenWorld: true}

type auditAccessibilityArgs struct {
	Scope string `json:"scope" desc:"only this element's subtree: a ref (e.g. 12) or a CSS selector"`
	Page  string `json:"page"`
}

// AuditAccessibility checks a page for what screen-reader and keyboard users
// meet.
var AuditAccessibility = auditGroup(define("auditAccessibility",
	"Accessibility audit (WCAG 2.2 AA): unnamed controls, images without alt, unlabeled fields, low contrast (with ratio), missing lang, heading jumps, focusable elements in aria-hidden, duplicate ARIA ids. Findings: severity, axe-core rule, ref, selector. Changes nothing.",
	ClassRead, auditHints,
	func(ctx context.Context, env *Env, a auditAccessibilityArgs) (*Result, error) {
		p, err := env.usablePage(ctx, a.Page)
		if err != nil {
			return nil, err
		}
		rep, err := audit.Accessibility(ctx, p, audit.AccessibilityOptions{Scope: scopeTarget(a.Scope), Shots: auditShots})
		if err != nil {
			return nil, err
		}
		path, err := env.writeJSON("accessibility", rep)
		if err != nil {
			return nil, err
		}
		env.keepAudit(ctx, &auditRecord{Kind: "accessibility", URL: rep.URL, Findings: rep.Findings, Artifact: path})
		head := fmt.Sprintf("accessibility %s %s: %s", p.ID, rep.URL, countBySeverity(rep.Findings))
		if rep.Truncated {
			head += " (stopped at the limit; audit a part with scope)"
		}
		return &Result{Text: head + "\n" + findingLines(rep.Findings, "") + "full data: " + path, Files: []string{path}}, nil
	}))

type auditSecurityArgs struct {
	Page string `json:"page"`
}

// AuditSecurity reviews a page's transport, headers, cookies, third parties
// and security messages.
var AuditSecurity = auditGroup(define("auditSecurity",
	"Security review of the page as loaded: TLS, mixed content, missing or weak headers (CSP, HSTS, framing, nosniff, Referrer-Policy, Permissions-Policy), cookies without Secure/HttpOnly/SameSite, other sites contacted, console security warnings. Changes nothing.",
	ClassRead, auditHints,
	func(ctx context.Context, env *Env, a auditSecurityArgs) (*Result, error) {
		p, err := env.usablePage(ctx, a.Page)
		if err != nil {
			return nil, err
		}
		rep, err := audit.Security(ctx, p)
		if err != nil {
			return nil, err
		}
		path, err := env.writeJSON("security", rep)
		if err != nil {
			return nil, err
		}
		env.keepAudit(ctx, &auditRecord{Kind: "security", URL: rep.URL, Findings: rep.Findings, Artifact: path})
		var b strings.Builder
		fmt.Fprintf(&b, "security %s %s: transport %s", p.ID, rep.URL, rep.State)
		if rep.TLS != nil {
			fmt.Fprintf(&b, " (%s, %s, issuer %s)", rep.TLS.Protocol, rep.TLS.Cipher, rep.TLS.Issuer)
		}
		fmt.Fprintf(&b, "; %s\n", countBySeverity(rep.Findings))
		b.WriteString(findingLines(rep.Findings, feedback.Origin(rep.URL)))
		b.WriteString("full data: " + path)
		return &Result{Text: b.String(), Files: []string{path}}, nil
	}))

// auditGroup puts an action in the audit group.
func auditGroup(a *Action) *Action {
	a.Group = GroupAudit
	return a
}

var digits = regexp.MustCompile(`^\d+$`)

// scopeTarget reads a scope argument: a ref number or a CSS selector.
func scopeTarget(s string) cdpclient.Target {
	s = strings.TrimSpace(s)
	if digits.MatchString(s) {
		return cdpclient.Target{Ref: s}
	}
	return cdpclient.Target{Selector: s}
}

// keepAudit records an audit for this session's report.
func (e *Env) keepAudit(ctx context.Context, r *auditRecord) {
	bc, err := e.Context(ctx)
	if err != nil {
		return
	}
	r.Time = time.Now()
	audits.add(bc, r)
}

// countBySeverity says how many findings there are of each severity.
func countBySeverity(fs []audit.Finding) string {
	if len(fs) == 0 {
		return "no findings"
	}
	n := map[string]int{}
	for _, f := range fs {
		n[f.Severity]++
	}
	var parts []string
	for _, s := range []string{audit.SeverityCritical, audit.SeveritySerious, audit.SeverityModerate, audit.SeverityMinor} {
		if n[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[s], s))
		}
	}
	word := "findings"
	if len(fs) == 1 {
		word = "finding"
	}
	return fmt.Sprintf("%d %s (%s)", len(fs), word, strings.Join(parts, ", "))
}

// findingLines renders findings one per line, worst first, at most five per
// rule and maxFindingsShown in all, saying what was left out. URLs on origin
// are written as paths.
func findingLines(fs []audit.Finding, origin string) string {
	var b strings.Builder
	perRule := map[string]int{}
	shown, left := 0, map[string]int{}
	for _, f := range fs {
		perRule[f.Rule]++
		if perRule[f.Rule] > 5 || shown >= maxFindingsShown {
			left[f.Rule]++
			continue
		}
		shown++
		fmt.Fprintf(&b, "%s %s", f.Severity, f.Rule)
		if f.Ref != "" {
			fmt.Fprintf(&b, " ref=%s", f.Ref)
		}
		if f.Selector != "" {
			fmt.Fprintf(&b, " %s", f.Selector)
		}
		if f.URL != "" && f.Selector == "" {
			fmt.Fprintf(&b, " %s", feedback.RelURL(f.URL, origin))
		}
		fmt.Fprintf(&b, ": %s\n", strings.ReplaceAll(f.Msg, "\n", " "))
	}
	if len(left) > 0 {
		var parts []string
		for _, f := range fs {
			if n := left[f.Rule]; n > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", n, f.Rule))
				left[f.Rule] = 0
			}
		}
		fmt.Fprintf(&b, "(+%s not listed: see the full data)\n", strings.Join(parts, ", "))
	}
	return b.String()
}
