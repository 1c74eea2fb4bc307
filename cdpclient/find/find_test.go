package find

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
)

// One browser and one fixtures server per test binary (cdptest); each test
// gets a fresh page in its own browser context.
func TestMain(m *testing.M) { os.Exit(cdptest.Main(m)) }

// find answers the matching lines of the page model and their refs, without
// the rest of the snapshot; with box, where each element is on screen.
func TestFind(t *testing.T) {
	t.Parallel()
	p, ctx := cdptest.Open(t, "/parity/form.html")
	tests := []struct {
		q    Query
		want []string // lines that must be there, as regular expressions
		not  string
	}{
		{Query{Role: "textbox", Name: "email"}, []string{`^1 match for role textbox, name "email"$`, `^\d+\[:\]# Sign up$`, `^\d+\[:\]<input type=email[^>]*>Email`}, "Name"},
		{Query{Role: "button", Name: "SAVE", Box: true}, []string{`^\d+\[:\]<button[^>]*>Save</button> \[box=\d+,\d+,\d+,\d+\]$`}, ""},
		{Query{Text: "newsletter"}, []string{`^\d+\[:\]<input type=checkbox[^>]*>Newsletter`}, "Email"},
		{Query{Role: "radio"}, []string{`^2 matches for role radio$`}, ""},
		{Query{Role: "link", Name: "nowhere"}, []string{`^no matches for role link, name "nowhere" on p\d+$`}, ""},
	}
	for _, tt := range tests {
		got, err := Find(ctx, p, tt.q)
		if err != nil {
			t.Fatalf("%+v: %v", tt.q, err)
		}
		for _, w := range tt.want {
			if !regexp.MustCompile(`(?m)` + w).MatchString(got) {
				t.Errorf("Find(%+v) lacks /%s/:\n%s", tt.q, w, got)
			}
		}
		if tt.not != "" && strings.Contains(got, tt.not) {
			t.Errorf("Find(%+v) holds %q:\n%s", tt.q, tt.not, got)
		}
	}
	if _, err := Find(ctx, p, Query{}); err == nil {
		t.Error("Find with nothing to find")
	}

	// In the innermost of three cross-site frames: the element has a box.
	if err := cdpclient.Outcome(p.Navigate(ctx, cdptest.Site.URL("/parity/nest.html?d=3"), cdpclient.WaitLoad)); err != nil {
		t.Fatal(err)
	}
	got, err := Find(ctx, p, Query{Role: "button", Name: "shadow", Box: true})
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^(\d+)\[:\]<button[^>]*>Shadow button</button> \[box=(\d+),(\d+),(\d+),(\d+)\]$`).FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("no shadow button with a box:\n%s", got)
	}
	// Where a click at the box's centre lands: cdpclient/input (the mouse).
}
