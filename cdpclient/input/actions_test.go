package input

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/cdpclient/wait"
)

// The input actions on the actions fixture: typing, filling, keys, selects,
// uploads and scrolling, each checked in the page's own state.

func TestTypeFillKeys(t *testing.T) {
	t.Parallel()
	p, ctx := open(t, "/actions.html")
	if err := outcome(Type(ctx, p, cdpclient.Target{Selector: "#name"}, "Zoë 1!", true, false)); err != nil {
		t.Fatalf("Type: %v", err)
	}
	if got := evalString(t, ctx, p, "name.value"); got != "Zoë 1!" {
		t.Errorf("typed value = %q", got)
	}
	if err := outcome(Fill(ctx, p, cdpclient.Target{Selector: "#name"}, "Alice")); err != nil {
		t.Fatalf("Fill: %v", err)
	}
	if got := evalString(t, ctx, p, "name.value"); got != "Alice" {
		t.Errorf("filled value = %q", got)
	}
	if ev := evalString(t, ctx, p, "document.getElementById('events').textContent"); !strings.Contains(ev, "input") || !strings.Contains(ev, "change") {
		t.Errorf("fill fired %q, want input and change", ev)
	}
	if err := outcome(Fill(ctx, p, cdpclient.Target{Selector: "#date"}, "2024-05-06")); err != nil || evalString(t, ctx, p, "date.value") != "2024-05-06" {
		t.Errorf("Fill date: %v", err)
	}
	if err := outcome(Fill(ctx, p, cdpclient.Target{Selector: "#editor"}, "new text")); err != nil || evalString(t, ctx, p, "editor.innerText") != "new text" {
		t.Errorf("Fill contenteditable: %v", err)
	}
	cdptest.WantCode(t, outcome(Fill(ctx, p, cdpclient.Target{Selector: "#ro"}, "x")), cdpclient.CodeDisabled)
	if err := outcome(Type(ctx, p, cdpclient.Target{Selector: "#name"}, " Smith", false, true)); err != nil {
		t.Fatalf("Type submit: %v", err)
	}
	if got := evalString(t, ctx, p, "submitted.textContent"); got != "submitted Alice Smith" {
		t.Errorf("submitted = %q", got)
	}
	for _, k := range []string{"a", "Shift+Tab", "ArrowLeft", "Control+A", "Enter"} {
		if err := outcome(PressKey(ctx, p, k, cdpclient.Target{Selector: "#keys"})); err != nil {
			t.Fatalf("PressKey(%q): %v", k, err)
		}
	}
	want := "a/KeyA/ Shift/ShiftLeft/S Tab/Tab/S "
	if got := evalString(t, ctx, p, "keylog.textContent"); !strings.HasPrefix(got, want) ||
		!strings.Contains(got, "ArrowLeft/ArrowLeft/") || !strings.Contains(got, "a/KeyA/C") || !strings.Contains(got, "Enter/Enter/") {
		t.Errorf("key log = %q", got)
	}
	var ae *cdpclient.ArgError
	if err := outcome(PressKey(ctx, p, "Hyper+Q", cdpclient.Target{})); !errors.As(err, &ae) {
		t.Errorf("bad key: got %v, want *cdpclient.ArgError", err)
	}
}

func TestSelectUploadHoverScroll(t *testing.T) {
	t.Parallel()
	p, ctx := open(t, "/actions.html")
	fb, err := SelectOption(ctx, p, cdpclient.Target{Selector: "#color"}, []string{"Blue"})
	if err != nil || !fb.OK || fb.Delta == nil || fb.Delta.Value != "b" {
		t.Fatalf("SelectOption = %s, %v", fb.JSON(), err)
	}
	cdptest.WantCode(t, outcome(SelectOption(ctx, p, cdpclient.Target{Selector: "#color"}, []string{"Purple"})), cdpclient.CodeNotFound)

	dir := t.TempDir()
	f := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(f, []byte("hi"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := outcome(UploadFile(ctx, p, cdpclient.Target{Selector: "#file"}, []string{f})); err != nil {
		t.Fatalf("UploadFile: %v", err)
	}
	if got := evalString(t, ctx, p, "count.textContent"); got != "a.txt" {
		t.Errorf("uploaded = %q", got)
	}
	var ae *cdpclient.ArgError
	if err := outcome(UploadFile(ctx, p, cdpclient.Target{Selector: "#file"}, []string{filepath.Join(dir, "missing")})); !errors.As(err, &ae) {
		t.Errorf("missing file: got %v", err)
	}
	if err := outcome(p.Hover(ctx, cdpclient.Target{Selector: "#hoverme"})); err != nil {
		t.Fatalf("Hover: %v", err)
	}
	if got := evalString(t, ctx, p, "hoverme.dataset.hovered"); got != "yes" {
		t.Errorf("hovered = %q", got)
	}
	if err := outcome(Scroll(ctx, p, "down", 500, cdpclient.Target{})); err != nil || evalString(t, ctx, p, "String(scrollY >= 400)") != "true" {
		t.Fatalf("Scroll down: %v", err)
	}
	fb, err = Scroll(ctx, p, "up", 5000, cdpclient.Target{})
	if err != nil || fb.Delta == nil || !strings.HasPrefix(fb.Delta.Value, "y=0 ") {
		t.Errorf("Scroll up = %s, %v", fb.JSON(), err)
	}
}

// A page's wheel scroll of the default amount goes most of a viewport, in
// quirks mode too (where the root element's client size is not the
// viewport's), and says where it stopped.
func TestScrollDefaultAmountInQuirksMode(t *testing.T) {
	t.Parallel()
	p, ctx := open(t, "/quirks.html")
	if got := evalString(t, ctx, p, "document.compatMode"); got != "BackCompat" {
		t.Fatalf("compatMode = %q, want BackCompat", got)
	}
	fb, err := Scroll(ctx, p, "down", 0, cdpclient.Target{})
	if err != nil || !fb.OK {
		t.Fatalf("Scroll = %s, %v", fb.JSON(), err)
	}
	want := evalString(t, ctx, p, "String(Math.round(innerHeight * 0.8))")
	if got := evalString(t, ctx, p, "String(scrollY)"); got != want {
		t.Errorf("scrollY = %s, want %s (80%% of the viewport)", got, want)
	}
	if fb.Delta == nil || !strings.HasPrefix(fb.Delta.Value, "y="+want+" ") {
		t.Errorf("Scroll = %s, want y=%s", fb.JSON(), want)
	}
}

// fill and type are seen by a framework that owns the field's value (React's
// controlled inputs only change through their onChange).
func TestFillReactControlledInputs(t *testing.T) {
	t.Parallel()
	p := newTestPage(t)
	ctx := testContext(t)
	if err := outcome(p.Navigate(ctx, cdptest.Site.URL("/react.html"), cdpclient.WaitLoad)); err != nil {
		t.Fatal(err)
	}
	if err := outcome(wait.For(ctx, p, wait.Spec{Target: cdpclient.Target{Selector: "#name"}})); err != nil {
		t.Fatal(err)
	}
	if _, err := Fill(ctx, p, cdpclient.Target{Selector: "#name"}, "Ada"); err != nil {
		t.Fatal(err)
	}
	if err := outcome(Type(ctx, p, cdpclient.Target{Selector: "#email"}, "ada@example.com", false, false)); err != nil {
		t.Fatal(err)
	}
	if got := evalString(t, ctx, p, "document.querySelector('#echo').textContent"); got != "Hello Ada" {
		t.Errorf("React saw the filled name as %q", got)
	}
	// The submit button React enables once both fields are set.
	if err := outcome(p.Click(ctx, cdpclient.Target{Selector: "button"}, cdpclient.ClickOptions{})); err != nil {
		t.Fatalf("click the enabled submit: %v", err)
	}
	if got := evalString(t, ctx, p, "document.querySelector('#sent').textContent"); got != "Sent by Ada <ada@example.com>" {
		t.Errorf("React state after submit = %q", got)
	}
	// Filling again replaces React's value rather than appending to it.
	if _, err := Fill(ctx, p, cdpclient.Target{Selector: "#name"}, "Grace"); err != nil {
		t.Fatal(err)
	}
	if got := evalString(t, ctx, p, "document.querySelector('#echo').textContent"); got != "Hello Grace" {
		t.Errorf("after a second fill = %q", got)
	}
}

// uploadFile into what is not a file input does not upload: a text field is
// refused before anything is clicked; a button that opens no file chooser is
// clicked (the delta says what the click did) but the answer is ok false.
func TestUploadToWhatTakesNoFile(t *testing.T) {
	t.Parallel()
	p, ctx := open(t, "/actions.html")
	f := filepath.Join(t.TempDir(), "a.txt")
	if err := os.WriteFile(f, []byte("hi"), 0o600); err != nil {
		t.Fatal(err)
	}
	fb, err := UploadFile(ctx, p, cdpclient.Target{Selector: "#name"}, []string{f})
	if err != nil || fb.OK || fb.Code != int(cdpclient.CodeNotFound) || !strings.Contains(fb.Msg, "<input type=text>, not a file input") {
		t.Errorf("upload into a text field = %s, %v", fb.JSON(), err)
	}
	before := evalString(t, ctx, p, "count.textContent")
	fb, err = UploadFile(ctx, p, cdpclient.Target{Selector: "#inc"}, []string{f})
	if err != nil || fb.OK || fb.Code != int(cdpclient.CodeNotFound) || !strings.Contains(fb.Msg, "opened no file chooser: no file was uploaded") {
		t.Errorf("upload through a button that opens no chooser = %s, %v", fb.JSON(), err)
	}
	if after := evalString(t, ctx, p, "count.textContent"); after == before || fb.Delta == nil || len(fb.Delta.Text) == 0 {
		t.Errorf("the click's effect %q → %q not in the answer: %s", before, after, fb.JSON())
	}
}

// Scrolling sideways says where it stopped sideways.
func TestScrollSidewaysSaysX(t *testing.T) {
	t.Parallel()
	p, ctx := open(t, "/actions.html")
	evalString(t, ctx, p, "document.body.style.width = '5000px'; 'wide'")
	fb, err := Scroll(ctx, p, "right", 300, cdpclient.Target{})
	if err != nil || fb.Delta == nil || !strings.HasPrefix(fb.Delta.Value, "x=300 left=300 right=") {
		t.Errorf("Scroll right = %s, %v", fb.JSON(), err)
	}
}

// A <select> whose option labels and values cross (one option shows what
// another sends) refuses a name that could mean either, rather than
// guessing; the label of an option with its own value works.
func TestSelectAmbiguousOption(t *testing.T) {
	t.Parallel()
	p, ctx := open(t, "/actions.html")
	evalString(t, ctx, p, `document.body.insertAdjacentHTML('beforeend', '<select id="land"><option value="x">None</option><option value="Germany">France</option><option value="France">Germany</option><option value="it">Italy</option></select>'); 'ok'`)
	land := cdpclient.Target{Selector: "#land"}
	fb, err := SelectOption(ctx, p, land, []string{"Germany"})
	if err != nil || fb.OK || !strings.Contains(fb.Msg, `"Germany" is the label of "Germany" (value "France") and the value of "France" (value "Germany")`) {
		t.Errorf("an ambiguous name = %s, %v", fb.JSON(), err)
	}
	if got := evalString(t, ctx, p, "land.value"); got != "x" {
		t.Errorf("the refused selection changed the select to %q", got)
	}
	fb, err = SelectOption(ctx, p, land, []string{"Italy"})
	if err != nil || !fb.OK || evalString(t, ctx, p, "land.value") != "it" {
		t.Errorf("a plain label = %s, %v", fb.JSON(), err)
	}
}
