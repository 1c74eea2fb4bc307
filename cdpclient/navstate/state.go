package navstate

import (
	"encoding/json"
	"sync"

	"github.com/mafredri/cdp/protocol/network"
	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/protocol/target"
)

// State is where a page's main frame is and has been: its target info (the
// address), its documents and their lifecycle, and the navigations and tabs
// it started or asked for, counted so that an action tells what it set off
// (Mark). The page's events write it (OnEvent); navigations and settling
// read it between changes, which it tells the page of (notify).
type State struct {
	notify func() // wakes the page's waits after a change

	mu          sync.Mutex
	info        target.Info
	mainFrame   page.FrameID
	loader      network.LoaderID
	lifecycle   map[string]bool // lifecycle events seen for loader
	docs        int             // main-frame documents started (lifecycle "init")
	loads       int             // main-frame loads started (a navigation is under way)
	requested   int             // main-frame navigations the page asked for
	loading     bool            // the main frame is loading (between started and stopped)
	sameDoc     int             // same-document navigations (history API, fragment)
	windowOpens int             // tabs and windows the page asked to open
	pending     Pending         // the main frame's navigation not yet committed or ended (pending.go)
}

// New is the state of a tab whose target info is info; notify is called
// after each change.
func New(info target.Info, notify func()) *State {
	return &State{
		notify:    notify,
		info:      info,
		mainFrame: page.FrameID(info.TargetID), // a tab's main frame shares its id
		lifecycle: map[string]bool{},
	}
}

// Mark is the page's navigation state before an action, to tell what the action
// started: counts that only grow.
type Mark struct {
	Docs        int // main-frame documents started
	SameDoc     int // same-document navigations
	Loads       int // main-frame loads started
	Requested   int // main-frame navigations the page asked for
	WindowOpens int // tabs and windows the page asked to open
}

// Mark is the state now, to compare a later one with.
func (h *State) Mark() Mark {
	h.mu.Lock()
	defer h.mu.Unlock()
	return Mark{h.docs, h.sameDoc, h.loads, h.requested, h.windowOpens}
}

// change runs fn under the lock and then, if fn changed anything (true),
// notifies the page.
func (h *State) change(fn func() bool) {
	h.mu.Lock()
	changed := fn()
	h.mu.Unlock()
	if changed {
		h.notify()
	}
}

// SetInfo records the target info the browser reported.
func (h *State) SetInfo(info target.Info) { h.change(func() bool { h.info = info; return true }) }

// URL is the main frame's current address.
func (h *State) URL() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.info.URL
}

// Title is the title the target info had at the last commit.
func (h *State) Title() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.info.Title
}

// Opener is the target id of the page that opened this one, or nil.
func (h *State) Opener() *target.ID {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.info.OpenerID
}

// Main is the id of the main frame.
func (h *State) Main() page.FrameID {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.mainFrame
}

// AdoptTree takes the main frame (and its loader, if no event named one yet)
// from the frame tree read once the page is set up.
func (h *State) AdoptTree(f page.Frame) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.mainFrame = f.ID
	if h.loader == "" {
		h.loader = f.LoaderID
	}
}

// Loaded reports whether a main-frame document started after mark has fired
// event ("" for the commit), or, with sameDocOK, a same-document navigation
// happened instead.
func (h *State) Loaded(mark Mark, event string, sameDocOK bool) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if sameDocOK && h.sameDoc > mark.SameDoc && h.docs == mark.Docs {
		return true
	}
	return h.docs > mark.Docs && (event == "" || h.lifecycle[event])
}

// Moved reports whether the page navigated, within its document or to a new
// one, since mark, and where it is.
func (h *State) Moved(mark Mark) (bool, string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.sameDoc > mark.SameDoc || h.docs > mark.Docs, h.info.URL
}

// LoadingSince reports whether a document started since nav has not loaded,
// or a navigation asked for since has not finished (it may yet fail or be
// refused).
func (h *State) LoadingSince(nav Mark) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.docs > nav.Docs && !h.lifecycle["load"] ||
		(h.requested > nav.Requested || h.loads > nav.Loads) && h.loading
}

// OnEvent records a navigation event of the page's session.
func (h *State) OnEvent(method string, params json.RawMessage) {
	switch method {
	case "Page.lifecycleEvent":
		var ev page.LifecycleEventReply
		if json.Unmarshal(params, &ev) == nil {
			h.onLifecycle(ev)
		}
	case "Page.frameNavigated":
		var ev page.FrameNavigatedReply
		if json.Unmarshal(params, &ev) == nil && ev.Frame.ParentID == nil {
			h.change(func() bool {
				h.pending = Pending{} // committed
				h.mainFrame = ev.Frame.ID
				h.info.URL = ev.Frame.URL
				if ev.Frame.URLFragment != nil {
					h.info.URL += *ev.Frame.URLFragment
				}
				if ev.Type == "BackForwardCacheRestore" {
					// A restored page fires no lifecycle events: it is loaded already.
					h.docs++
					h.loader = ev.Frame.LoaderID
					h.lifecycle = map[string]bool{"DOMContentLoaded": true, "load": true, "networkIdle": true}
				}
				return true
			})
		}
	case "Page.navigatedWithinDocument":
		var ev page.NavigatedWithinDocumentReply
		if json.Unmarshal(params, &ev) == nil {
			h.change(func() bool {
				if ev.FrameID != h.mainFrame {
					return false
				}
				h.info.URL = ev.URL
				h.sameDoc++
				return true
			})
		}
	case "Page.frameStartedLoading", "Page.frameStoppedLoading", "Page.frameRequestedNavigation":
		var ev struct {
			FrameID     page.FrameID `json:"frameId"`
			Disposition string       `json:"disposition"`
			URL         string       `json:"url"`
		}
		if json.Unmarshal(params, &ev) == nil {
			h.change(func() bool { return ev.FrameID == h.mainFrame && h.onLoading(method, ev.Disposition, ev.URL) })
		}
	case "Page.frameStartedNavigating":
		var ev startedNavigating
		if json.Unmarshal(params, &ev) == nil {
			h.change(func() bool { return ev.FrameID == h.mainFrame && h.onStartedNavigating(ev) })
		}
	case "Page.windowOpen":
		h.change(func() bool { h.windowOpens++; return true })
	}
}

// onLoading counts a main-frame load starting or stopping, or a navigation
// the page asked for in its own tab. h.mu is held. It reports true: the
// page's waits are woken for any of them.
func (h *State) onLoading(method, disposition, url string) bool {
	switch method {
	case "Page.frameStartedLoading":
		h.loads++
		h.loading = true
	case "Page.frameStoppedLoading":
		h.loading = false
		h.pending = Pending{} // ended without a document (stopped, failed, a download)
	default:
		if disposition == "" || disposition == "currentTab" {
			h.requested++
			h.loading = true
			h.requestedNavigation(url)
		}
	}
	return true
}

func (h *State) onLifecycle(ev page.LifecycleEventReply) {
	h.change(func() bool { return h.lifecycleLocked(ev) })
}

// lifecycleLocked records a lifecycle event of the main frame: a new loader
// or an "init" starts a document. h.mu is held.
func (h *State) lifecycleLocked(ev page.LifecycleEventReply) bool {
	if h.mainFrame != "" && ev.FrameID != h.mainFrame {
		return false
	}
	if ev.Name == "init" || ev.LoaderID != h.loader {
		if ev.LoaderID != h.loader || ev.Name == "init" && len(h.lifecycle) > 0 {
			h.docs++
		}
		h.loader = ev.LoaderID
		h.lifecycle = map[string]bool{}
	}
	h.lifecycle[ev.Name] = true
	return true
}
