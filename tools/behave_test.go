package tools

import (
	"github.com/mark3labs/mcp-go/client"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Behaviour on the pages of fixtures/pages/behave, through a real MCP client:
// each answer says what really happened (issue: correct on real pages).

// wantIn fails unless r's text holds every one of subs.
func wantIn(t *testing.T, r result, subs ...string) {
	t.Helper()
	for _, s := range subs {
		if !strings.Contains(r.text, s) {
			t.Errorf("answer lacks %q: %s", s, r.text)
		}
	}
}

func textOf(t *testing.T, c *client.Client, selector string) string {
	t.Helper()
	r := callTool(t, c, "getContent", map[string]any{"selector": selector, "format": "text"})
	mustOK(t, r)
	return strings.TrimSpace(r.text)
}

// A click happened even when its handler throws or the server then fails: ok,
// with the exception in errors and the status in net. Clicked twice, it runs
// twice: nothing told the model to repeat it.
func TestClickThatThrowsOrFailsIsOK(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/throw.html")}))
	r := callTool(t, c, "click", map[string]any{"selector": "#b"})
	mustOK(t, r)
	wantIn(t, r, `"ok":true`, `TypeError`, `clicked 1`)
	r = callTool(t, c, "click", map[string]any{"selector": "#api"})
	mustOK(t, r)
	wantIn(t, r, `"u":"/status/500","s":500`, "server said 500")
	if got := textOf(t, c, "#out"); got != "server said 500" {
		t.Errorf("out = %q", got)
	}
}

func TestEvaluateAsPeopleUseIt(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/throw.html")}))
	tests := []struct {
		expr, want string
		isError    bool
	}{
		{"(async () => 42)()", "42", false},
		{"async () => { await new Promise(r => setTimeout(r, 20)); return {a: 1} }", `{"a":1}`, false},
		{"await Promise.resolve('top-level await')", `"top-level await"`, false},
		{"Promise.reject(new Error('nope'))", "Error: nope", true},
		{"(function f() { throw new TypeError('bad') })()", "TypeError: bad (at f", true},
		{"[1, NaN, -0, 10n, undefined, Infinity]", "[1,NaN,-0,10n,undefined,Infinity]", false},
		{"undefined", "undefined", false},
		{"document.querySelector('#b')", `"<button#b>"`, false},
		{"new Map([['k', 1]])", `{"Map":[["k",1]]}`, false},
		{"new Set([1, 2])", `{"Set":[1,2]}`, false},
		{"(() => { const o = {name: 'o'}; o.self = o; return o; })()", `{"name":"o","self":"[circular]"}`, false},
		{"({f() {}, n: null})", `{"f":"[function f() {}]","n":null}`, false},
	}
	for _, tt := range tests {
		r := callTool(t, c, "evaluate", map[string]any{"expression": tt.expr})
		if r.isError != tt.isError || !strings.Contains(r.text, tt.want) {
			t.Errorf("evaluate %s = %q (isError %v), want %q (isError %v)", tt.expr, r.text, r.isError, tt.want, tt.isError)
		}
	}
	// Reading the result runs no page code: a getter and toString that would
	// change the page are not called.
	r := callTool(t, c, "evaluate", map[string]any{"expression": "({get boom() { document.title = 'hacked'; return 1 }, toString() { document.title = 'hacked'; return 'x' }})"})
	mustOK(t, r)
	wantIn(t, r, `"boom":"[getter]"`)
	if r := callTool(t, c, "getTitle", nil); r.text != "Throw" {
		t.Errorf("reading a result ran page code: title %q", r.text)
	}
	// A large result is cut, saying so.
	r = callTool(t, c, "evaluate", map[string]any{"expression": "Array.from({length: 5000}, (_, i) => ({i}))"})
	wantIn(t, r, "items left out")
}

// Tabs the page opens load, are listed and named in the feedback; a cross-site
// sign-in popup that closes itself hands back to its opener, which keeps working.
func TestPopupsLoadAndHandBack(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/popup.html")}))
	r := callTool(t, c, "click", map[string]any{"selector": "#blank"})
	mustOK(t, r)
	wantIn(t, r, `"page":"p2"`, "p2 "+site.URL("/second.html"))
	wantIn(t, callTool(t, c, "listPages", nil), "p2 Second page")
	r = callTool(t, c, "click", map[string]any{"selector": "#signin"})
	mustOK(t, r)
	wantIn(t, r, `"page":"p3"`, "popup-signin.html")
	mustOK(t, callTool(t, c, "switchPage", map[string]any{"page": "p3"}))
	mustOK(t, callTool(t, c, "fill", map[string]any{"selector": "#user", "value": "alice"}))
	r = callTool(t, c, "click", map[string]any{"selector": "#allow"})
	mustOK(t, r)
	// window.close() is asynchronous: the answer says the tab closed itself
	// when the close came before the click settled; else the tab goes, and
	// p1 becomes the current tab, just after.
	if strings.Contains(r.text, "closed itself") {
		wantIn(t, r, "now p1")
	} else if strings.Contains(r.text, "errors") {
		t.Errorf("click answer: %s", r.text)
	}
	waitUntil(t, "the popup gone and p1 current", func() bool {
		l := callTool(t, c, "listPages", nil)
		return !strings.Contains(l.text, "p3") && strings.Contains(l.text, "* p1")
	})
	// The popup's message reaches its opener, in another process, as a task
	// of its own: it may land after the click's answer.
	waitUntil(t, `the opener's status "signed in as alice"`, func() bool { return textOf(t, c, "#status") == "signed in as alice" })
}

// Keys as a person presses them.
func TestKeysAsPeoplePressThem(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/keys.html")}))
	eval := func(expr string) string {
		t.Helper()
		r := callTool(t, c, "evaluate", map[string]any{"expression": expr})
		mustOK(t, r)
		return r.text
	}
	// Select all, then type: the text is replaced, in an input and in rich text.
	mustOK(t, callTool(t, c, "click", map[string]any{"selector": "#title"}))
	mustOK(t, callTool(t, c, "pressKey", map[string]any{"key": "Control+A"}))
	mustOK(t, callTool(t, c, "type", map[string]any{"selector": "#title", "text": "Fresh"}))
	if got := eval("title.value"); got != `"Fresh"` {
		t.Errorf("select all, type: %s", got)
	}
	mustOK(t, callTool(t, c, "pressKey", map[string]any{"key": "Home"}))
	mustOK(t, callTool(t, c, "pressKey", map[string]any{"key": "Shift+ArrowRight"}))
	mustOK(t, callTool(t, c, "pressKey", map[string]any{"key": "Backspace"}))
	if got := eval("title.value"); got != `"resh"` {
		t.Errorf("Home, Shift+ArrowRight, Backspace: %s", got)
	}
	mustOK(t, callTool(t, c, "click", map[string]any{"selector": "#rich"}))
	mustOK(t, callTool(t, c, "pressKey", map[string]any{"key": "Control+A"}))
	mustOK(t, callTool(t, c, "type", map[string]any{"selector": "#rich", "text": "New rich"}))
	if got := eval("rich.textContent"); got != `"New rich"` {
		t.Errorf("select all in contenteditable, type: %s", got)
	}
	// Enter adds a line in a textarea and submits a form.
	mustOK(t, callTool(t, c, "pressKey", map[string]any{"selector": "#notes", "key": "End"}))
	mustOK(t, callTool(t, c, "pressKey", map[string]any{"key": "Enter"}))
	mustOK(t, callTool(t, c, "type", map[string]any{"selector": "#notes", "text": "line two"}))
	if got := eval("notes.value"); got != `"line one\nline two"` {
		t.Errorf("Enter in a textarea: %s", got)
	}
	mustOK(t, callTool(t, c, "type", map[string]any{"selector": "#q", "text": "cats"}))
	wantIn(t, callTool(t, c, "pressKey", map[string]any{"key": "Enter"}), "submitted cats")
	// Tab and Shift+Tab move focus; Escape reaches the page.
	mustOK(t, callTool(t, c, "pressKey", map[string]any{"key": "Tab"}))
	if got := eval("document.activeElement.id"); got != `"next"` {
		t.Errorf("Tab moved focus to %s", got)
	}
	mustOK(t, callTool(t, c, "pressKey", map[string]any{"key": "Shift+Tab"}))
	if got := eval("document.activeElement.id"); got != `"q"` {
		t.Errorf("Shift+Tab moved focus to %s", got)
	}
	wantIn(t, callTool(t, c, "pressKey", map[string]any{"key": "Escape"}), "escape pressed")
	// Enter submits a form that navigates (implicit submission).
	r := callTool(t, c, "type", map[string]any{"selector": "#site", "text": "golang", "submit": true})
	mustOK(t, r)
	wantIn(t, r, `"url":"/echo?site=golang&within=docs"`)
}

// Fields that keep their own state (from key events, or reformatting what they
// get) end up with what the framework made of the input, and say so.
func TestFrameworkControlledInput(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/controlled.html")}))
	wantIn(t, callTool(t, c, "type", map[string]any{"selector": "#code", "text": "ab12"}), "code=AB12")
	wantIn(t, callTool(t, c, "fill", map[string]any{"selector": "#phone", "value": "5551234567"}), `"value":"(555) 123-4567"`)
	wantIn(t, callTool(t, c, "fill", map[string]any{"selector": "#code", "value": "zz9"}), `"value":"ZZ9"`)
	if got := textOf(t, c, "#state"); got != "code=ZZ9 phone=(555) 123-4567" {
		t.Errorf("state = %q", got)
	}
}

// Dialogs: the click answers at once with the dialog; handleDialog answers
// exactly as asked and reports what the handler did next; a dialog nobody
// answered does not block a navigation.
func TestDialogsAnswerAsAsked(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/dialogs.html")}))
	r := callTool(t, c, "click", map[string]any{"selector": "#confirm"})
	mustOK(t, r)
	wantIn(t, r, `"dialog":{"type":"confirm","msg":"Delete it?"}`, "handleDialog")
	r = callTool(t, c, "click", map[string]any{"selector": "#alert"})
	if !r.isError || !strings.Contains(r.text, `"code":3`) {
		t.Errorf("a click while a dialog is open: %s", r.text)
	}
	wantIn(t, callTool(t, c, "handleDialog", map[string]any{"accept": false}), "confirmed false")
	mustOK(t, callTool(t, c, "click", map[string]any{"selector": "#prompt"}))
	wantIn(t, callTool(t, c, "handleDialog", map[string]any{"accept": true, "promptText": "Zoe"}), "name Zoe")
	mustOK(t, callTool(t, c, "click", map[string]any{"selector": "#alert"}))
	wantIn(t, callTool(t, c, "handleDialog", map[string]any{"accept": true}), "after alert")
	// An alert while loading, answered by no one: the next navigation closes
	// it and goes on.
	wantIn(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/alert-onload.html")}), `"type":"alert","msg":"Welcome!"`)
	r = callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/keys.html")})
	mustOK(t, r)
	wantIn(t, r, `"closed":"dismissed"`, `"title":"Keys"`)
	// Leaving a page with unsaved changes: past its prompt, as asked.
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/leave.html")}))
	mustOK(t, callTool(t, c, "click", map[string]any{"selector": "#draft"}))
	r = callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/keys.html")})
	mustOK(t, r)
	wantIn(t, r, `"type":"beforeunload"`, `"closed":"accepted"`, `"title":"Keys"`)
}

// What a click changes that is no DOM addition: a modal shown by a class, a
// hidden element shown, a button renamed, a toast gone again, a request still
// pending.
func TestFeedbackSeesWhatChanged(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/changes.html")}))
	mustOK(t, callTool(t, c, "snapshot", nil))
	wantIn(t, callTool(t, c, "click", map[string]any{"selector": "#openModal"}), "Settings", "<input>Email</input>", "<button>Close</button>")
	r := callTool(t, c, "click", map[string]any{"selector": ".modal button"})
	wantIn(t, r, `"removed":[`)
	wantIn(t, callTool(t, c, "click", map[string]any{"selector": "#toggleTip"}), "Tip: press the save button twice.")
	wantIn(t, callTool(t, c, "click", map[string]any{"selector": "#save"}), `"Saved"`)
	r = callTool(t, c, "click", map[string]any{"selector": "#toast"})
	wantIn(t, r, "Copied to clipboard")
	r = callTool(t, c, "click", map[string]any{"selector": "#slow"})
	mustOK(t, r)
	wantIn(t, r, `"pending":true`)
	mustOK(t, callTool(t, c, "waitFor", map[string]any{"text": "slow done", "timeoutMs": 8000}))
}

// Files reach the page with their names, types and bytes: through a hidden
// input, its label, or a button that opens the file chooser.
func TestUploadDeliversFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.png"), filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(a, []byte("\x89PNG rest"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/upload.html")}))
	// The label standing in for the hidden input is what a person clicks.
	s := callTool(t, c, "snapshot", nil)
	wantIn(t, s, "<label for=file>Choose photos</label>")
	// The page writes what it read from the files: the answer shows it
	// when the page was quick enough, the page itself in any case.
	delivered := func(r result, want string) {
		t.Helper()
		mustOK(t, r)
		if !strings.Contains(r.text, want) {
			mustOK(t, callTool(t, c, "waitFor", map[string]any{"text": want}))
		}
	}
	delivered(callTool(t, c, "uploadFile", map[string]any{"ref": refIn(t, s.text, "Choose photos"), "paths": []string{b}}), "notes.txt text/plain 5")
	delivered(callTool(t, c, "uploadFile", map[string]any{"selector": "#pick", "paths": []string{a}}), "a.png image/png 9 137,80,78,71")
	delivered(callTool(t, c, "uploadFile", map[string]any{"selector": "label", "paths": []string{a, b}}), "notes.txt text/plain 5 104,101,108,108")
	wantIn(t, callTool(t, c, "uploadFile", map[string]any{"selector": "#file", "paths": []string{b}}), "notes.txt")
}

// A tab stuck in a script answers that it is busy; other tabs keep working
// (the script never ends, so a call that waited for it would outlast the test
// bound); reload recovers it.
func TestHungTabLeavesOthersWorking(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/hang.html")}))
	start := time.Now()
	r := callTool(t, c, "click", map[string]any{"selector": "#hang"})
	clickTook := time.Since(start)
	mustOK(t, r)
	wantIn(t, r, "busy")
	mustOK(t, callTool(t, c, "newPage", map[string]any{"url": site.URL("/behave/throw.html")}))
	start = time.Now()
	mustOK(t, callTool(t, c, "click", map[string]any{"selector": "#api"}))
	otherTook := time.Since(start)
	start = time.Now()
	r = callTool(t, c, "snapshot", map[string]any{"page": "p1"})
	nextTook := time.Since(start)
	if !r.isError || !strings.Contains(r.text, "busy") {
		t.Errorf("snapshot of the stuck tab: %s", r.text)
	}
	t.Logf("click into the hung handler %v, click in another tab %v, next call on the stuck tab %v", clickTook, otherTook, nextTook)
	mustOK(t, callTool(t, c, "reload", map[string]any{"page": "p1"}))
	wantIn(t, callTool(t, c, "click", map[string]any{"page": "p1", "selector": "#ok"}), "fine")
}

// Typing into a form inside a cross-site (out-of-process) frame, by ref.
func TestInputInCrossSiteFrame(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/xframe.html")}))
	s := callTool(t, c, "snapshot", nil)
	holder, card, pay := refIn(t, s.text, "Card holder"), refIn(t, s.text, "Card number"), refIn(t, s.text, "Pay")
	mustOK(t, callTool(t, c, "type", map[string]any{"ref": holder, "text": "Ada Lovelace"}))
	mustOK(t, callTool(t, c, "fill", map[string]any{"ref": card, "value": "4242"}))
	wantIn(t, callTool(t, c, "click", map[string]any{"ref": pay}), "charged 4242")
	if got := textOf(t, c, "#top"); got != "paid by Ada Lovelace" {
		t.Errorf("top page says %q", got)
	}
}

// refIn finds the ref of the element line whose name contains name.
func refIn(t *testing.T, snap, name string) string {
	t.Helper()
	for _, l := range strings.Split(snap, "\n") {
		if i := strings.Index(l, "[:]<"); i > 0 && strings.Contains(l[i:], ">"+name) {
			return l[:i]
		}
	}
	t.Fatalf("no element %q in:\n%s", name, snap)
	return ""
}

// In read-only mode a reload or history step never sends a form again.
func TestReadOnlyNeverResubmits(t *testing.T) {
	t.Parallel()
	ro := New(Config{ReadOnly: true, IsolateSessions: true, Timeout: callTimeout}, mgr)
	defer ro.Close()
	c := newClient(t, ro)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/autopost.html")}))
	wantIn(t, callTool(t, c, "waitFor", map[string]any{"text": "Echo POST"}), "ok")
	posts := site.Hits("/echo")
	r := callTool(t, c, "reload", nil)
	if !r.isError || !strings.Contains(r.text, `"code":8`) || !strings.Contains(r.text, "form post") {
		t.Errorf("reload of a posted page in read-only mode: %s", r.text)
	}
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/second.html")}))
	r = callTool(t, c, "goBack", nil)
	if !r.isError || !strings.Contains(r.text, "form post") {
		t.Errorf("goBack to a posted page in read-only mode: %s", r.text)
	}
	if got := site.Hits("/echo"); got != posts {
		t.Errorf("the form was sent again: %d posts, then %d", posts, got)
	}
}

// A click lands on its element even when the page moves under the pointer
// between the element's measure and the click: here the pointer's arrival
// pushes a decoy to where the target was. The click is stopped before the
// decoy sees it and sent again; a page that moves at every try gets no click
// at all, and an answer that says so.
//
// (A page that covers the element once it is pressed keeps its click.)
func TestClickFollowsAMovingPage(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/moving.html")}))
	mustOK(t, callTool(t, c, "click", map[string]any{"selector": "#target"}))
	if got := textOf(t, c, "#log"); got != "target" {
		t.Errorf("after the click on a page that moved once, the log says %q, want \"target\"", got)
	}

	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/moving.html?always")}))
	r := callTool(t, c, "click", map[string]any{"selector": "#target"})
	if fb := feedbackOf(t, r); fb["ok"] != false {
		t.Errorf("a click on a page that moves at every try answered ok: %s", r.text)
	}
	wantIn(t, r, "kept moving under the click", "<button#decoy>Decoy")
	if got := textOf(t, c, "#log"); got != "" {
		t.Errorf("the page that moves at every try was clicked: log %q", got)
	}

	// The first event of the click decides: a button that a cover hides once
	// pressed still gets the rest of its click.
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/covered.html")}))
	mustOK(t, callTool(t, c, "click", map[string]any{"selector": "#b"}))
	if got := textOf(t, c, "#log"); got != "down clicked" {
		t.Errorf("the button covered once pressed: log %q, want \"down clicked\"", got)
	}
}
