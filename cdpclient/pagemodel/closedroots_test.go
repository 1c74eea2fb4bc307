package pagemodel

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/input"
)

// A page's closed shadow roots are read and acted in as open ones are: their
// text and controls in the snapshot, a click on a control inside one lands
// (the hit test sees through the host), a fill reaches the field, and the
// click's feedback names what changed inside the root.
func TestClosedShadowRoots(t *testing.T) {
	t.Parallel()
	p, ctx := open(t, "/closed-shadow.html")
	s, err := Snapshot(ctx, p, Options{MaxTokens: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("snapshot:\n%s", s)
	for _, want := range []string{"Card payment", "Closed text about the card fee.", "Slotted words about the order",
		">Card number</input>", ">Pay now</button>", "Closed consent banner text.", ">Privacy choices</a>", ">Nested closed button</button>"} {
		if !strings.Contains(s, want) {
			t.Errorf("snapshot lacks %q", want)
		}
	}
	// Document order: the widget's own text between the light text around it.
	if a, b, c := strings.Index(s, "Light text before"), strings.Index(s, "Closed text about"), strings.Index(s, "Nothing pressed yet"); !(a < b && b < c) {
		t.Errorf("closed root text out of document order: %d %d %d", a, b, c)
	}
	if err := outcome(input.Fill(ctx, p, cdpclient.Target{Ref: refOf(t, s, "Card number")}, "4242")); err != nil {
		t.Fatalf("fill in a closed root: %v", err)
	}
	fb, err := p.Click(ctx, cdpclient.Target{Ref: refOf(t, s, "Pay now")}, cdpclient.ClickOptions{})
	if err := outcome(fb, err); err != nil {
		t.Fatalf("click in a closed root: %v", err)
	}
	if d := fb.Delta; d == nil || !strings.Contains(fmt.Sprint(d.Text, d.Added), "Paid with 4242") {
		t.Errorf("the click's feedback does not name what changed in the closed root: %+v", fb)
	}
	if err := outcome(p.Click(ctx, cdpclient.Target{Ref: refOf(t, s, "Nested closed button")}, cdpclient.ClickOptions{})); err != nil {
		t.Fatalf("click in a nested closed root: %v", err)
	}
	if got, err := evaluate(ctx, p, "document.getElementById('status').textContent"); err != nil || got != `"Nested pressed"` {
		t.Errorf("nested button: status %q, %v", got, err)
	}
	// Asked about once: a second snapshot gives the same refs.
	s2, err := Snapshot(ctx, p, Options{MaxTokens: -1})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := refOf(t, s, "Pay now"), refOf(t, s2, "Pay now"); a != b {
		t.Errorf("ref of Pay now changed from %s to %s", a, b)
	}
}
