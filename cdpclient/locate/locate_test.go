package locate

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/google/go-cmp/cmp"
)

// One browser and one fixtures server per test binary (cdptest); each test
// gets a fresh page in its own browser context.
func TestMain(m *testing.M) { os.Exit(cdptest.Main(m)) }

// A description taken on the learn site finds its element again on the
// redesign (other ids, classes, field names and layout, a hidden button of
// the same name), and finds nothing on the site whose button was renamed,
// saying what there is instead.
func TestDescribeThenFindAcrossVariants(t *testing.T) {
	t.Parallel()
	p, ctx := cdptest.Open(t, "/learn/site/signin")
	email, err := Describe(ctx, p, cdpclient.Target{Selector: "#f-email"})
	if err != nil {
		t.Fatal(err)
	}
	want := Description{Role: "textbox", Name: "Email", Label: "Email", Field: "email", Tag: "input", Type: "email",
		Near: "Sign in to Acme", CSS: "#f-email"}
	if diff := cmp.Diff(want, email.Description); diff != "" {
		t.Errorf("email field (-want +got):\n%s", diff)
	}
	pw, err := Describe(ctx, p, cdpclient.Target{Selector: "input[type=password]"})
	if err != nil {
		t.Fatal(err)
	}
	if !pw.Secret || email.Secret || pw.Role != "" || pw.Name != "Password" {
		t.Errorf("password %+v (secret %t), email secret %t", pw.Description, pw.Secret, email.Secret)
	}
	button, err := Describe(ctx, p, cdpclient.Target{Selector: "button"})
	if err != nil {
		t.Fatal(err)
	}
	if button.Role != "button" || button.Name != "Sign in" {
		t.Fatalf("button: %+v", button.Description)
	}

	moved, ctx := cdptest.Open(t, "/learn/moved/signin")
	for _, d := range []Description{email.Description, pw.Description, button.Description} {
		m, err := Find(ctx, moved, d)
		if err != nil {
			t.Errorf("Find(%s) on the redesign: %v", d, err)
			continue
		}
		// The ref works as a snapshot's: the element it names is the one.
		got, err := Describe(ctx, moved, cdpclient.Target{Ref: m.Ref})
		if err != nil || !strings.EqualFold(got.Name, d.Name) || got.Role != d.Role {
			t.Errorf("Find(%s) gave ref %s = %+v (%v)", d, m.Ref, got.Description, err)
		}
	}
	if m, _ := Find(ctx, moved, button.Description); m.Line == "" || !strings.Contains(m.Line, "Sign in") {
		t.Errorf("the visible button's line: %q", m.Line)
	}

	renamed, ctx := cdptest.Open(t, "/learn/renamed/signin")
	_, err = Find(ctx, renamed, button.Description)
	var miss *NoMatchError
	if !errors.As(err, &miss) || miss.Count != 0 {
		t.Fatalf("Find(button Sign in) on the renamed site: %v", err)
	}
	if msg := err.Error(); !strings.Contains(msg, `no button "Sign in"`) || !strings.Contains(msg, "<button>Log in</button>") {
		t.Errorf("message: %s", msg)
	}
	// The fields are still found there.
	if _, err := Find(ctx, renamed, email.Description); err != nil {
		t.Error(err)
	}
}

// Two buttons of one name are told apart by the row they sit in; without
// it, Find says it cannot tell which and lists them.
func TestFindTellsRowsApartOrSaysAmbiguous(t *testing.T) {
	t.Parallel()
	p, ctx := cdptest.Open(t, "/learn/site/rows")
	second, err := Describe(ctx, p, cdpclient.Target{Selector: "tr:nth-of-type(2) button"})
	if err != nil {
		t.Fatal(err)
	}
	if second.Near != "Invoice 1002 Globex" {
		t.Errorf("near = %q", second.Near)
	}
	m, err := Find(ctx, p, second.Description)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := Describe(ctx, p, cdpclient.Target{Ref: m.Ref})
	if got.Near != second.Near {
		t.Errorf("found the button near %q", got.Near)
	}
	_, err = Find(ctx, p, Description{Role: "button", Name: "Edit"})
	var miss *NoMatchError
	if !errors.As(err, &miss) || miss.Count != 2 || len(miss.Found) != 2 || !strings.Contains(err.Error(), "not clear which") {
		t.Errorf("ambiguous Find: %v", err)
	}
	if _, err := Find(ctx, p, Description{}); err == nil {
		t.Error("an empty description was accepted")
	}
}

// The page's facts and texts: a number in the wanted text matches any.
func TestPageFactsAndHasText(t *testing.T) {
	t.Parallel()
	p, ctx := cdptest.Open(t, "/learn/site/rows")
	f, err := PageFacts(ctx, p)
	if err != nil || f.Title != "Invoices · Acme" || f.Heading != "Invoices" {
		t.Errorf("PageFacts = %+v, %v", f, err)
	}
	for text, want := range map[string]bool{"invoice 1001": true, "Invoice 77 Globex": true, "Invoice Initech": false} {
		got, err := HasText(ctx, p, text)
		if err != nil || got != want {
			t.Errorf("HasText(%q) = %t, %v; want %t", text, got, err, want)
		}
	}
}
