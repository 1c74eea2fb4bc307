package agentloop

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// Every function of the Functions list, run as the loop runs it on a fixture
// page, with the page's state checked afterwards.
func TestEveryFunctionOnAPage(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	r := &runner{env: env, cfg: Config{}.withDefaults()}
	page, home := site.URL("/agent/actions.html"), site.URL("/home.html")
	upload := filepath.Join(t.TempDir(), "invoice.pdf")
	if err := os.WriteFile(upload, []byte("%PDF"), 0o600); err != nil {
		t.Fatal(err)
	}
	js := func(expr, want string) func(t *testing.T) {
		return func(t *testing.T) {
			t.Helper()
			if got := evalOn(t, env, expr); got != want {
				t.Errorf("%s = %s, want %s", expr, got, want)
			}
		}
	}
	// tabsShow checks the prompt's Available tabs: a background tab by the
	// title its page set, not its address.
	tabsShow := func(want string) func(t *testing.T) {
		return func(t *testing.T) {
			t.Helper()
			obs, err := r.observe(testCtx(t))
			if err != nil || !strings.Contains(obs.tabs, want) {
				t.Errorf("Available tabs = %q (err %v), want a line %q", obs.tabs, err, want)
			}
		}
	}
	tests := []struct {
		name string
		// args may hold %d for the index of the element whose line contains target.
		args, target string
		breaks       bool
		result, err  string // substrings of the recorded result and error
		check        func(t *testing.T)
	}{
		{name: "go_to_url", args: `{"url": "` + page + `"}`, breaks: true, result: `{"ok":true}`, check: js("location.pathname", `"/agent/actions.html"`)},
		{name: "click_element", args: `{"index": %d}`, target: "Increment", result: `"text":[[`, check: js("count.textContent", `"1"`)},
		{name: "input_text", args: `{"index": %d, "text": "Paris"}`, target: "City", check: js("document.getElementById('city').value", `"Paris"`)},
		{name: "select_option", args: `{"index": %d, "option": "Large"}`, target: "<select", result: `"value":"l"`, check: js("document.getElementById('size').value", `"l"`)},
		{name: "click_element", args: `{"index": %d}`, target: "Keys"},
		{name: "send_keys", args: `{"keys": "Enter"}`, check: js("keylog.textContent", `"Enter "`)},
		// The menu it opens is new elements: the sequence stops for a new list.
		{name: "hover_element", args: `{"index": %d}`, target: "Products", breaks: true, result: "<a>Laptops</a>", check: js("menu.className", `"open"`)},
		{name: "upload_file", args: `{"index": %d, "paths": ["` + upload + `"]}`, target: "type=file", check: js("files.textContent", `"invoice.pdf"`)},
		{name: "scroll", args: `{"direction": "down", "amount": 400}`, result: `"value":"y=`, check: js("scrollY >= 400", "true")},
		{name: "scroll", args: `{"direction": "to_element", "element_index": %d}`, target: "Bottom button", check: js("document.getElementById('bottom').getBoundingClientRect().bottom <= innerHeight", "true")},
		{name: "scroll_up", args: `{"amount": 100000}`, check: js("scrollY < 200", "true")},
		{name: "wait_for", args: fmt.Sprintf(`{"text": "Loaded late", "timeout_ms": %d}`, testbound.Bound().Milliseconds()), check: js("late.textContent", `"Loaded late"`)},
		{name: "extract_page_content", args: `{"include_links": true}`, result: "Count: 1"},
		{name: "copy_to_clipboard", args: `{"text": " Zürich"}`, result: "ok"},
		{name: "click_element", args: `{"index": %d}`, target: "City"},
		{name: "paste_from_clipboard", args: `{}`, check: js("document.getElementById('city').value", `"Paris Zürich"`)},
		{name: "paste_from_clipboard", args: `{"element_index": %d}`, target: "Keys", check: js("document.getElementById('keys').value", `" Zürich"`)},
		{name: "click_element", args: `{"index": %d}`, target: "Save", breaks: true, result: `"dialog":{"type":"alert","msg":"Saved!"}`},
		{name: "handle_dialog", args: `{"accept": true}`, check: js("count.textContent", `"alerted"`)},
		{name: "open_tab", args: `{"url": "` + home + `"}`, breaks: true, result: "p2", check: js("location.pathname", `"/home.html"`)},
		{name: "switch_tab", args: `{"index": 0}`, breaks: true, check: func(t *testing.T) {
			js("location.pathname", `"/agent/actions.html"`)(t)
			tabsShow("\n1: Fixtures home — " + home)(t)
		}},
		{name: "close_tab", args: `{"index": 1}`, breaks: true, result: "closed p2"},
		{name: "click_element", args: `{"index": %d}`, target: "Next page", breaks: true, result: `"url":"/home.html"`},
		{name: "go_back", args: `{}`, breaks: true, check: js("location.pathname", `"/agent/actions.html"`)},
		// What the model gets wrong is explained, and nothing runs.
		{name: "click_element", args: `{"index": 4242}`, err: "element index 4242 is not in the Interactive elements list"},
		{name: "switch_tab", args: `{"index": 3}`, err: "tab index 3 is not in Available tabs (0 to 0)"},
		{name: "input_text", args: `{"index": %d}`, target: "City", err: `argument "text" is required`},
		{name: "go_to_url", args: `"` + home + `"`, breaks: true, check: js("location.pathname", `"/home.html"`)},
		{name: "teleport", args: `{}`, err: `unknown action "teleport"`},
		{name: "ask_human", args: `{"reason": "captcha"}`, err: `unknown action "ask_human"`},
		{name: "go_to_url", args: `{"url": "file:///etc/passwd"}`, err: "PERMISSION"},
		{name: "click_element", args: `{"index": "x"}`, err: "element index x is not in the Interactive elements list"},
	}
	for i, tc := range tests {
		ctx := testCtx(t)
		obs, err := r.observe(ctx)
		if err != nil {
			t.Fatalf("%d %s: observe: %v", i, tc.name, err)
		}
		args := tc.args
		if tc.target != "" {
			args = fmt.Sprintf(args, refOf(t, "6. Interactive elements:\n"+obs.elements, tc.target))
		}
		sc := &stepCtx{run: r, refs: obs.refs, tabs: obs.tabIDs}
		rec, o, err := sc.execute(ctx, Call{Name: tc.name, Args: json.RawMessage(args)})
		if err != nil {
			t.Fatalf("%d %s: %v", i, tc.name, err)
		}
		if tc.err == "" && rec.Error != "" || tc.err != "" && !strings.Contains(rec.Error, tc.err) {
			t.Errorf("%d %s %s: error %q, want %q", i, tc.name, args, rec.Error, tc.err)
		}
		if !strings.Contains(rec.Result, tc.result) {
			t.Errorf("%d %s %s: result %q lacks %q", i, tc.name, args, rec.Result, tc.result)
		}
		if o.breaks != tc.breaks {
			t.Errorf("%d %s %s: breaks the sequence %t, want %t (result %s)", i, tc.name, args, o.breaks, tc.breaks, rec.Result)
		}
		if o.failed != (tc.err != "") {
			t.Errorf("%d %s: failed %t", i, tc.name, o.failed)
		}
		if tc.check != nil {
			tc.check(t)
		}
	}
	// done ends the run with its result.
	sc := &stepCtx{run: r}
	_, o, _ := sc.execute(testCtx(t), Call{Name: "done", Args: json.RawMessage(`{"text": "all set", "success": false}`)})
	if !o.done || o.doneOK || o.doneText != "all set" {
		t.Errorf("done = %+v", o)
	}
}

// The Functions list names each function with its arguments, their types and
// the catalogue's choices.
func TestFunctionsList(t *testing.T) {
	got := Functions(false, true)
	for _, want := range []string{
		"go_to_url: Navigate to a specified URL\n  {\"url\": string (absolute URL, e.g. https://example.com)}\n",
		"click_element: Click on an element (real mouse events; fails if it is disabled or covered)\n  {\"index\": integer (element index)}\n",
		"scroll: Scroll the page (or the area under element_index), or bring element_index into view with to_element\n  {\"direction\": \"up\"|\"down\"|\"left\"|\"right\"|\"to_element\" (to_element needs element_index), \"amount\"?: integer (pixels), \"element_index\"?: integer (element index)}\n",
		"ask_human: ",
		"\ndone: Signal task completion",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("Functions lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(Functions(false, false), "ask_human") {
		t.Error("ask_human is offered without a person to ask")
	}
	t.Logf("Functions list: %d bytes, ≈%d tokens", len(got), estimateTokens(got))
}
