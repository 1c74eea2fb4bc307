package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mafredri/cdp"
)

// issueKinds are the DevTools issues that concern security, by code, with
// the words the console uses for them.
var issueKinds = map[string]string{
	"MixedContentIssue": "mixed content", "ContentSecurityPolicyIssue": "content security policy",
	"CookieIssue": "cookie", "BlockedByResponseIssue": "blocked", "CorsIssue": "cors",
	"SharedArrayBufferIssue": "cross-origin",
}

// securityIssue is one issue the browser raised: its kind (as issueKinds
// words it) and what it says.
type securityIssue struct{ kind, what string }

// securityIssues enables the Audits domain long enough for the browser to
// replay the issues it collected for the page, and describes the security
// ones.
func securityIssues(ctx context.Context, d cdpclient.Door) []securityIssue {
	var out []securityIssue
	_, _ = d.Run(ctx, cdpclient.ModeRead, func(ctx context.Context, c *cdp.Client) error {
		issues, err := c.Audits.IssueAdded(ctx)
		if err != nil {
			return err
		}
		defer issues.Close()
		if err := c.Audits.Enable(ctx); err != nil {
			return err
		}
		defer func() {
			cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cdpclient.CallTimeout)
			defer cancel()
			_ = c.Audits.Disable(cctx)
		}()
		wait, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
		defer cancel()
		for {
			select {
			case <-issues.Ready():
			case <-wait.Done():
				return nil
			}
			ev, err := issues.Recv()
			if err != nil {
				return nil
			}
			kind, ok := issueKinds[string(ev.Issue.Code)]
			if !ok {
				continue
			}
			out = append(out, securityIssue{kind: kind, what: describeIssue(kind, ev.Issue.Details)})
		}
	})
	return out
}

// describeIssue words an issue's details briefly.
func describeIssue(kind string, details any) string {
	b, _ := json.Marshal(details)
	var d struct {
		CSP *struct {
			BlockedURL string `json:"blockedURL"`
			Directive  string `json:"violatedDirective"`
		} `json:"contentSecurityPolicyIssueDetails"`
		Mixed *struct {
			InsecureURL string `json:"insecureURL"`
			Resolution  string `json:"resolutionStatus"`
		} `json:"mixedContentIssueDetails"`
		Cookie *struct {
			Cookie *struct {
				Name string `json:"name"`
			} `json:"cookie"`
			Warnings   []string `json:"cookieWarningReasons"`
			Exclusions []string `json:"cookieExclusionReasons"`
		} `json:"cookieIssueDetails"`
	}
	_ = json.Unmarshal(b, &d)
	switch {
	case d.CSP != nil:
		return fmt.Sprintf("%s blocked %s (%s)", kind, d.CSP.BlockedURL, d.CSP.Directive)
	case d.Mixed != nil:
		return fmt.Sprintf("%s %s (%s)", kind, d.Mixed.InsecureURL, d.Mixed.Resolution)
	case d.Cookie != nil && d.Cookie.Cookie != nil:
		return fmt.Sprintf("%s %q: %s", kind, d.Cookie.Cookie.Name, strings.Join(append(d.Cookie.Warnings, d.Cookie.Exclusions...), ", "))
	}
	return kind + " " + truncate(string(b), 200)
}
