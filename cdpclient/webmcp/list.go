package webmcp

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/jsfunc"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/page"
)

//go:embed js/*.js
var jsFiles embed.FS

var jsFuncs = jsfunc.Load(jsFiles, "js")

// Tool is one tool a page registered.
type Tool struct {
	Name        string
	Description string
	// InputSchema is the JSON Schema of the tool's arguments, as the page
	// gave it; nil when it gave none.
	InputSchema json.RawMessage
	// ReadOnly is the page's word that the tool changes nothing (its
	// readOnlyHint annotation).
	ReadOnly bool
	// Untrusted is the page's word that the tool's output may hold content
	// it does not vouch for (another user's text, a third party's data).
	Untrusted bool
	// Frame is the id of the frame whose document registered the tool, and
	// FrameURL that document's URL.
	Frame, FrameURL string
	// Main says the frame is the page's main frame.
	Main bool
	// session is the id of the page's session hosting the frame ("" the
	// page's own).
	session string
}

// Availability says why a page has no tools: WebMCP is off in the browser
// or the document is not a secure context. Both are empty when WebMCP is on.
type Availability struct {
	// Off, when set, says WebMCP is off and what to do.
	Off, Hint string
}

// ErrNoWebMCP is wrapped by errors of a browser without the WebMCP domain
// at all (older than Chromium 146).
var ErrNoWebMCP = errors.New("the browser has no WebMCP")

// List returns the tools p's documents registered, the main frame's first,
// and, when there are none, whether WebMCP is on to register them.
func List(ctx context.Context, p *cdpclient.Page) ([]Tool, Availability, error) {
	var (
		tools []Tool
		avail Availability
	)
	d := p.Door()
	_, err := d.Run(ctx, cdpclient.ModeRead, func(ctx context.Context, c *cdp.Client) error {
		var err error
		if tools, err = announce(ctx, d); err != nil {
			return err
		}
		if len(tools) == 0 {
			avail, err = availability(ctx, d)
		}
		return err
	})
	return tools, avail, err
}

// announce returns the tools the page's sessions announced, with their
// frames' URLs, after one more enable of each (an enable announces its main
// frame's tools, before its answer). Call it inside Door.Run.
func announce(ctx context.Context, d cdpclient.Door) ([]Tool, error) {
	st := stateOf(d)
	main := d.Frames().Main()
	var out []Tool
	for _, s := range d.Sessions() {
		// On already (enableEarly) but for a tab that was open before
		// cdpmcp came: this one announces its main frame's tools.
		if _, err := s.Call(ctx, "WebMCP.enable", nil); err != nil {
			var ce *cdpclient.Error
			if errors.As(err, &ce) && s.ID() == "" {
				return nil, fmt.Errorf("%w: %v", ErrNoWebMCP, err)
			}
			continue // a frame going away
		}
		urls := frameURLs(ctx, s.Client())
		for _, t := range st.snapshot(s.ID()) {
			out = append(out, Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema,
				ReadOnly: t.Annotations.ReadOnly, Untrusted: t.Annotations.UntrustedContent,
				Frame: t.FrameID, FrameURL: urls[t.FrameID], Main: t.FrameID == main, session: s.ID()})
		}
	}
	slices.SortStableFunc(out, func(a, b Tool) int {
		switch {
		case a.Main && !b.Main:
			return -1
		case b.Main && !a.Main:
			return 1
		}
		return 0
	})
	return out, nil
}

// frameURLs maps the frames of a session's frame tree to their documents'
// URLs (empty when the tree cannot be read: the frame is going away).
func frameURLs(ctx context.Context, c *cdp.Client) map[string]string {
	out := map[string]string{}
	r, err := c.Page.GetFrameTree(ctx)
	if err != nil {
		return out
	}
	var walk func(t page.FrameTree)
	walk = func(t page.FrameTree) {
		url := t.Frame.URL
		if t.Frame.URLFragment != nil {
			url += *t.Frame.URLFragment
		}
		out[string(t.Frame.ID)] = url
		for _, child := range t.ChildFrames {
			walk(child)
		}
	}
	walk(r.FrameTree)
	return out
}

// availability says whether the main frame's document could register
// tools. Call it inside Door.Run.
func availability(ctx context.Context, d cdpclient.Door) (Availability, error) {
	r, err := d.CallInWorld(ctx, jsFuncs.Func("modelContextState"))
	if err != nil {
		return Availability{}, err
	}
	var st struct {
		Present, Secure bool
		URL             string
	}
	if r.ExceptionDetails == nil {
		_ = json.Unmarshal(r.Result.Value, &st)
	}
	switch {
	case st.Present:
		return Availability{}, nil
	case st.URL == "about:blank" || st.URL == "":
		return Availability{Off: "the tab shows no page yet", Hint: "navigate to the page whose tools you want"}, nil
	case !st.Secure:
		return Availability{Off: "WebMCP needs a secure page (https, or http on localhost), and this one is not",
			Hint: "open the page over https"}, nil
	}
	return Availability{Off: "this browser has WebMCP turned off, so pages cannot register tools",
		Hint: "start Chrome or Chromium 146 or newer with --enable-features=WebMCPTesting (cdpmcp turns it on in the browsers it launches unless --webmcp=false)"}, nil
}
