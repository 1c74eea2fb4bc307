package webmcp

import (
	"context"
	"encoding/json"
	"slices"
	"sync"

	"github.com/cdpmcp/cdpmcp/cdpclient"
)

// The WebMCP domain's events, as each page's listener records them: the tools
// its sessions announce (WebMCP.toolsAdded as each registers, and for the
// main frame's all again on each WebMCP.enable; toolsRemoved), the answers of
// invocations (toolResponded) and the documents that replaced a frame's
// (Page.frameNavigated), which take their tools and pending calls with them.

func register() {
	cdpclient.OnPageEvents(listen)
	cdpclient.AddHooks(cdpclient.Hooks{Context: enableEarly})
}

// enableEarly turns the WebMCP domain on in each document session a context
// attaches, before its documents run: an enable announces the tools of the
// session's main frame only, so a frame's tools are heard only when they
// register. A browser without the domain refuses it, which costs nothing
// more; one launched with WebMCP off is not asked.
func enableEarly(ctx context.Context, bc *cdpclient.BrowserContext) (func(), error) {
	if bc.Browser().Options().Launch.DisableWebMCP && bc.Browser().Launched() {
		return nil, nil
	}
	bc.Door().Hook(cdpclient.ContextHook{SessionCalls: []string{"WebMCP.enable"}})
	return nil, nil
}

// wireTool is a tool as WebMCP.toolsAdded announces it.
type wireTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
	Annotations struct {
		ReadOnly         bool `json:"readOnly"`
		UntrustedContent bool `json:"untrustedContent"`
	} `json:"annotations"`
	FrameID string `json:"frameId"`
}

// response is an invocation's answer (WebMCP.toolResponded).
type response struct {
	Status    string          `json:"status"` // Completed, Canceled, Error
	Output    json.RawMessage `json:"output"`
	ErrorText string          `json:"errorText"`
	Exception *struct {
		Description string `json:"description"`
	} `json:"exception"`
}

// state is what a page's listener recorded; it lives in the page's slot.
type state struct {
	mu sync.Mutex
	// tools are the tools each session announced, by session id ("" the
	// page's own), since List last cleared it.
	tools map[string][]wireTool
	// answers are the invocations answered, by invocation id, until their
	// call reads them.
	answers map[string]response
	// navigations counts each frame's new documents.
	navigations map[string]int
	// changed is closed, and replaced, whenever answers or navigations
	// change.
	changed chan struct{}
}

type stateKey struct{}

func stateOf(d cdpclient.Door) *state {
	return d.Slot(stateKey{}, func() any {
		return &state{tools: map[string][]wireTool{}, answers: map[string]response{}, navigations: map[string]int{}, changed: make(chan struct{})}
	}).(*state)
}

// listen is each page's listener (cdpclient.OnPageEvents). It runs on the
// connection's read goroutine: it records and returns.
func listen(d cdpclient.Door) cdpclient.PageListener {
	st := stateOf(d)
	return func(session, method string, params json.RawMessage) {
		switch method {
		case "WebMCP.toolsAdded":
			var ev struct {
				Tools []wireTool `json:"tools"`
			}
			if json.Unmarshal(params, &ev) == nil {
				st.added(session, ev.Tools)
			}
		case "WebMCP.toolsRemoved":
			var ev struct {
				Tools []wireTool `json:"tools"`
			}
			if json.Unmarshal(params, &ev) == nil {
				st.removed(session, ev.Tools)
			}
		case "WebMCP.toolResponded":
			var ev struct {
				InvocationID string `json:"invocationId"`
				response
			}
			if json.Unmarshal(params, &ev) == nil {
				st.answered(ev.InvocationID, ev.response)
			}
		case "Page.frameNavigated":
			var ev struct {
				Frame struct {
					ID string `json:"id"`
				} `json:"frame"`
			}
			if json.Unmarshal(params, &ev) == nil {
				st.navigated(session, ev.Frame.ID)
			}
		}
	}
}

func (st *state) added(session string, tools []wireTool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	list := st.tools[session]
	for _, t := range tools {
		list = slices.DeleteFunc(list, func(o wireTool) bool { return o.Name == t.Name && o.FrameID == t.FrameID })
		list = append(list, t)
	}
	st.tools[session] = list
}

func (st *state) removed(session string, tools []wireTool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, t := range tools {
		st.tools[session] = slices.DeleteFunc(st.tools[session], func(o wireTool) bool { return o.Name == t.Name && o.FrameID == t.FrameID })
	}
}

func (st *state) answered(id string, r response) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.answers[id] = r
	st.wake()
}

func (st *state) navigated(session, frame string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.tools[session] = slices.DeleteFunc(st.tools[session], func(o wireTool) bool { return o.FrameID == frame })
	st.navigations[frame]++
	st.wake()
}

// wake tells the waiting calls that something changed; st.mu is held.
func (st *state) wake() {
	close(st.changed)
	st.changed = make(chan struct{})
}

// snapshot copies what session announced.
func (st *state) snapshot(session string) []wireTool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return slices.Clone(st.tools[session])
}
