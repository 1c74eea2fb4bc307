package webmcp

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// The feature is set up first, as cmd/cdpmcp does.
func TestMain(m *testing.M) { Register(); os.Exit(cdptest.Main(m)) }

// openTools opens the tools fixture and waits until its frame's tool is
// registered too; it returns the page's tools by name.
func openTools(t *testing.T) (*cdpclient.Page, map[string]Tool) {
	t.Helper()
	p, ctx := cdptest.Open(t, "/webmcp/tools.html")
	byName := map[string]Tool{}
	testbound.Until(t, "the page and its frame to register their tools", func() bool {
		tools, avail, err := List(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if avail.Off != "" {
			t.Fatalf("WebMCP is off in cdpmcp's own browser: %s", avail.Off)
		}
		for _, tool := range tools {
			byName[tool.Name] = tool
		}
		return len(byName) == 4
	})
	return p, byName
}

// The tools of the page and of its cross-site frame are listed with their
// descriptions, schemas, read-only word and frames, the page's first.
func TestListPageTools(t *testing.T) {
	t.Parallel()
	p, tools := openTools(t)
	main := p.Door().Frames().Main()
	for name, want := range map[string]struct {
		readOnly bool
		inFrame  bool
		schema   string
	}{
		"getCount":    {readOnly: true},
		"addToCount":  {schema: `"required":["by"]`},
		"breakCount":  {},
		"frameOrigin": {readOnly: true, inFrame: true},
	} {
		tool := tools[name]
		if tool.ReadOnly != want.readOnly || (tool.Frame != main) != want.inFrame || tool.Description == "" ||
			!strings.Contains(string(tool.InputSchema), want.schema) {
			t.Errorf("%s: %+v", name, tool)
		}
	}
	if u := tools["frameOrigin"].FrameURL; !strings.HasPrefix(u, cdptest.Site.AltURL("/webmcp/frame.html")) {
		t.Errorf("the frame tool's URL is %q", u)
	}
	if u := tools["getCount"].FrameURL; u != cdptest.Site.URL("/webmcp/tools.html") {
		t.Errorf("the page tool's URL is %q", u)
	}
}

// A call answers with the tool's output and what the page did; a tool of a
// cross-site frame answers from there; reading tools change nothing.
func TestCallPageTool(t *testing.T) {
	t.Parallel()
	p, _ := openTools(t)
	ctx := testbound.Context(t)
	got, err := Call(ctx, p, "addToCount", json.RawMessage(`{"by":3}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	fb, _ := json.Marshal(got.Feedback)
	if string(got.Output) != `"now 3"` || !got.Feedback.OK || !strings.Contains(string(fb), "added 3") {
		t.Errorf("addToCount: output %s, feedback %s", got.Output, fb)
	}
	if n := cdptest.Text(t, ctx, p, "#n"); n != "3" {
		t.Errorf("the counter reads %q after adding 3", n)
	}
	got, err = Call(ctx, p, "getCount", nil, nil)
	if err != nil || !strings.Contains(string(got.Output), `"text":"3"`) || got.Feedback.Delta != nil {
		t.Errorf("getCount: %v %s %+v", err, got.Output, got.Feedback)
	}
	got, err = Call(ctx, p, "frameOrigin", json.RawMessage(`{}`), nil)
	if err != nil || string(got.Output) != `"`+cdptest.Site.AltBase+`"` {
		t.Errorf("frameOrigin: %v %s", err, got.Output)
	}
}

// A tool that throws is the tool's failure (JS_ERROR with its message);
// arguments its schema refuses, a name the page does not have and a refusal
// of the caller's are not called at all.
func TestCallPageToolFailures(t *testing.T) {
	t.Parallel()
	p, _ := openTools(t)
	ctx := testbound.Context(t)
	got, err := Call(ctx, p, "breakCount", nil, nil)
	if err != nil || got.Feedback.OK || got.Feedback.Code != int(cdpclient.CodeJSError) ||
		!strings.Contains(got.Feedback.Msg, "the counter is broken") || got.Feedback.Hint == "" {
		t.Errorf("breakCount: %v %+v", err, got)
	}
	var argErr *cdpclient.ArgError
	if _, err := Call(ctx, p, "addToCount", json.RawMessage(`{"by":"x"}`), nil); !errors.As(err, &argErr) || !strings.Contains(argErr.Hint, `"by"`) {
		t.Errorf("addToCount with a string: %v", err)
	}
	if _, err := Call(ctx, p, "addToCount", json.RawMessage(`[1]`), nil); !errors.As(err, &argErr) {
		t.Errorf("arguments that are not an object: %v", err)
	}
	e := cdptest.WantCode(t, callErr(Call(ctx, p, "nope", nil, nil)), cdpclient.CodeNotFound)
	if !strings.Contains(e.Hint, "addToCount") {
		t.Errorf("an unknown tool's hint does not name the page's: %q", e.Hint)
	}
	refused := errors.New("refused by the caller")
	if _, err := Call(ctx, p, "addToCount", json.RawMessage(`{"by":1}`), func(Tool) error { return refused }); !errors.Is(err, refused) {
		t.Errorf("a tool the caller refused: %v", err)
	}
	if n := cdptest.Text(t, ctx, p, "#n"); n != "0" {
		t.Errorf("the counter reads %q after calls that should not have run", n)
	}
}

// callErr is the error of a Call, or of its feedback when it did not
// happen.
func callErr(got *Called, err error) error {
	if err == nil && !got.Feedback.OK {
		return &cdpclient.Error{Code: cdpclient.Code(got.Feedback.Code), Msg: got.Feedback.Msg, Hint: got.Feedback.Hint}
	}
	return err
}

// A blank tab says it shows no page yet instead of "no tools".
func TestNoPageNoTools(t *testing.T) {
	t.Parallel()
	p := cdptest.NewPage(t)
	tools, avail, err := List(testbound.Context(t), p)
	if err != nil || len(tools) != 0 || !strings.Contains(avail.Off, "no page") || avail.Hint == "" {
		t.Errorf("blank tab: %v %v %+v", err, tools, avail)
	}
}

// In a browser that gives cross-site frames processes of their own
// (--site-per-process, as Chrome with a window does), a cross-site frame's
// tool is announced on the frame's own session and called there.
func TestOutOfProcessFrameTool(t *testing.T) {
	t.Parallel()
	ctx := testbound.Context(t)
	b, err := cdpclient.Connect(ctx, cdpclient.Options{Launch: cdpclient.LaunchOptions{Headless: true, Args: []string{"--site-per-process"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	p, err := b.Default().NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := cdpclient.Outcome(p.Navigate(ctx, cdptest.Site.URL("/webmcp/tools.html"), cdpclient.WaitLoad)); err != nil {
		t.Fatal(err)
	}
	var frameTool Tool
	testbound.Until(t, "the out-of-process frame's tool", func() bool {
		tools, _, err := List(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range tools {
			if tool.Name == "frameOrigin" {
				frameTool = tool
			}
		}
		return frameTool.Name != ""
	})
	if frameTool.session == "" || frameTool.Main {
		t.Errorf("the frame's tool is not on the frame's session: %+v", frameTool)
	}
	got, err := Call(ctx, p, "frameOrigin", nil, nil)
	if err != nil || string(got.Output) != `"`+cdptest.Site.AltBase+`"` {
		t.Errorf("frameOrigin in its own process: %v %+v", err, got)
	}
}

// A browser without WebMCP (launched with it off, as an attached Chrome
// started without the feature is) lists no tools and says how to turn it
// on; a call names the same.
func TestBrowserWithoutWebMCP(t *testing.T) {
	t.Parallel()
	ctx := testbound.Context(t)
	b, err := cdpclient.Connect(ctx, cdpclient.Options{Launch: cdpclient.LaunchOptions{Headless: true, DisableWebMCP: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	p, err := b.Default().NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := cdpclient.Outcome(p.Navigate(ctx, cdptest.Site.URL("/webmcp/tools.html"), cdpclient.WaitLoad)); err != nil {
		t.Fatal(err)
	}
	tools, avail, err := List(ctx, p)
	if err != nil || len(tools) != 0 || !strings.Contains(avail.Off, "WebMCP turned off") || !strings.Contains(avail.Hint, "--enable-features=WebMCPTesting") {
		t.Errorf("without WebMCP: %v %v %+v", err, tools, avail)
	}
	e := cdptest.WantCode(t, callErr(Call(ctx, p, "getCount", nil, nil)), cdpclient.CodeNotFound)
	if !strings.Contains(e.Msg, "WebMCP turned off") {
		t.Errorf("a call without WebMCP: %v", e)
	}
}
