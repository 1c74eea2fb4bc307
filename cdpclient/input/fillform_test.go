package input

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/google/go-cmp/cmp"
)

// fillForm sets every kind of field in one action, as a person would, and the
// page's own handlers see each change.
func TestFillForm(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	p := newTestPage(t)
	if err := outcome(p.Navigate(ctx, cdptest.Site.URL("/parity/form.html"), cdpclient.WaitLoad)); err != nil {
		t.Fatal(err)
	}
	avatar := filepath.Join(t.TempDir(), "me.png")
	if err := os.WriteFile(avatar, []byte("png"), 0o600); err != nil {
		t.Fatal(err)
	}
	sel := func(s string) cdpclient.Target { return cdpclient.Target{Selector: s} }
	fb, err := FillForm(ctx, p, []FormField{
		{sel("#name"), "Ada Lovelace"},
		{sel("#email"), "ada@example.com"},
		{sel("#country"), "France"},
		{sel("#news"), "true"},
		{sel("#terms"), "false"},
		{sel("#basic"), "pro"},
		{sel("#start"), "2025-03-14"},
		{sel("#volume"), "7"},
		{sel("#avatar"), avatar},
		{sel("#bio"), "Analyst"},
	})
	if err := outcome(fb, err); err != nil {
		t.Fatal(err)
	}
	if fb.Delta == nil || fb.Delta.Value != "filled 10 fields" {
		t.Errorf("feedback = %s", fb.JSON())
	}
	if err := outcome(p.Click(ctx, sel("#submit"), cdpclient.ClickOptions{})); err != nil {
		t.Fatal(err)
	}
	got := strings.Split(pageText(t, ctx, p, "#out"), "\n")
	want := []string{"name=Ada Lovelace", "email=ada@example.com", "country=fr", "news=true", "terms=false", "plan=pro",
		"start=2025-03-14", "volume=7", "avatar=me.png", "bio=Analyst",
		"changed=avatar,bio,country,email,name,news,plan,start,terms,volume"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("form (-want +got):\n%s", diff)
	}

	// A field that cannot be set stops the action there: the ones before it
	// are set (ok, the failure among the errors); the first failing is a
	// failure.
	fb, err = FillForm(ctx, p, []FormField{{sel("#name"), "Grace"}, {sel("#country"), "Narnia"}, {sel("#bio"), "never"}})
	if err := outcome(fb, err); err != nil || len(fb.Errors) == 0 || !strings.Contains(fb.Errors[0], `field 2 of 3 (selector "#country"): no option ["Narnia"]`) ||
		!strings.Contains(fb.Hint, "United States") {
		t.Errorf("a failing second field: %v %s", err, fb.JSON())
	}
	fb, err = FillForm(ctx, p, []FormField{{sel("#basic"), "gold"}})
	if err := outcome(fb, err); err == nil || !strings.Contains(err.Error(), `no radio "gold"`) {
		t.Errorf("a failing first field: %v", err)
	}
	if _, err := FillForm(ctx, p, []FormField{{sel("#news"), "maybe"}}); err == nil || !strings.Contains(err.Error(), "not a checkbox value") {
		t.Errorf("a bad checkbox value: %v", err)
	}
}
