package audit

import (
	"sort"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/eval"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/google/go-cmp/cmp"
)

// ruleAt is a finding reduced to what a fixture plants: the rule and where.
func rulesAt(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		where := f.Selector
		if where == "" {
			where = f.URL
		}
		out = append(out, f.Rule+" "+where)
	}
	sort.Strings(out)
	return out
}

// The accessibility audit finds exactly the planted problems, and nothing on
// the clean twin; each finding's ref names its element.
func TestAuditAccessibilityFixtures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		page  string
		scope cdpclient.Target
		want  []string
	}{
		{"/audit/a11y-bad.html", cdpclient.Target{}, []string{
			"aria-command-name #fake-btn",
			"aria-hidden-focus #hidden-nav",
			"button-name #icon-btn",
			"color-contrast #deep",
			"color-contrast #faint",
			"duplicate-id-aria html > body > span:nth-of-type(1)",
			"heading-order #h3",
			"html-has-lang html",
			"image-alt #photo",
			"label #email",
			"link-name #logo-link",
			"select-name #size",
		}},
		{"/audit/a11y-bad.html", cdpclient.Target{Selector: "#hidden-nav"}, []string{"aria-hidden-focus #hidden-nav"}},
		{"/audit/a11y-links.html", cdpclient.Target{}, []string{"color-contrast #muted", "link-name #button-link", "link-name #menu-link"}},
		{"/audit/a11y-good.html", cdpclient.Target{}, nil},
	}
	for _, tt := range tests {
		p := newTestPage(t)
		ctx := testContext(t)
		if _, err := p.Navigate(ctx, cdptest.Site.URL(tt.page), cdpclient.WaitLoad); err != nil {
			t.Fatal(err)
		}
		rep, err := Accessibility(ctx, p, AccessibilityOptions{Scope: tt.scope, Shots: 3})
		if err != nil {
			t.Fatalf("%s: %v", tt.page, err)
		}
		if diff := cmp.Diff(tt.want, rulesAt(rep.Findings)); diff != "" {
			t.Errorf("%s %v findings (-want +got):\n%s", tt.page, tt.scope, diff)
		}
		shots := 0
		for _, f := range rep.Findings {
			if f.Severity == "" || f.Msg == "" || f.Ref == "" {
				t.Errorf("%s: finding without severity, message or ref: %+v", tt.page, f)
			}
			if f.Shot != nil {
				shots++
			}
			if f.Rule == "color-contrast" && (f.Ratio <= 1 || f.Ratio >= f.Need || !strings.Contains(f.Msg, ":1")) {
				t.Errorf("contrast finding without its measured ratio: %+v", f)
			}
			// The ref names the same element as the selector.
			got, err := eval.Evaluate(ctx, p, "(el) => el === document.querySelector("+quoteJS(f.Selector)+")", eval.Options{Target: cdpclient.Target{Ref: f.Ref}})
			if err != nil || got != "true" {
				t.Errorf("ref %s of %s is not %s: %s %v", f.Ref, f.Rule, f.Selector, got, err)
			}
		}
		if len(rep.Findings) > 0 && shots == 0 {
			t.Errorf("%s: no element pictures", tt.page)
		}
	}
}

func quoteJS(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}
