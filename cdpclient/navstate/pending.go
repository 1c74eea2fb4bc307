package navstate

import (
	"time"

	"github.com/mafredri/cdp/protocol/page"
)

// Pending is a navigation of the main frame that has started and has neither
// committed a document nor ended (stopped, failed, turned into a download).
// Meanwhile Chromium holds every DevTools call bound for the tab's renderer
// (RenderFrameDevToolsAgentHost suspends its sessions' messages from the
// navigation's start to its end): the page it leaves answers nothing, though
// no script keeps it, until the server answers.
type Pending struct {
	URL string // where it goes
	// Loader is its loader id, which is also the id of its document's
	// request; "" when only the page's request for it was seen (a browser
	// without Page.frameStartedNavigating).
	Loader string
	Since  time.Time // when it started
}

// startedNavigating is the Page.frameStartedNavigating event (Chromium 130
// and later; mafredri/cdp has no type for it).
type startedNavigating struct {
	FrameID        page.FrameID `json:"frameId"`
	URL            string       `json:"url"`
	LoaderID       string       `json:"loaderId"`
	NavigationType string       `json:"navigationType"`
}

// Pending is the main frame's navigation under way, if there is one: it
// started, and the frame is loading.
func (h *State) Pending() (Pending, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.pending, h.pending.URL != "" && h.loading
}

// onStartedNavigating records a navigation of the main frame starting. A
// same-document one (a fragment, the history API) is over at once. h.mu is
// held.
func (h *State) onStartedNavigating(ev startedNavigating) bool {
	switch ev.NavigationType {
	case "sameDocument", "historySameDocument":
		return false
	}
	h.pending = Pending{URL: ev.URL, Loader: ev.LoaderID, Since: time.Now()}
	return true
}

// requestedNavigation records the page asking to go to url in its own tab,
// which starts a navigation there unless a "leave site?" prompt stops it (it
// counts only while the frame is loading, Pending). Page.frameStartedNavigating,
// which follows it, names the navigation's loader. h.mu is held.
func (h *State) requestedNavigation(url string) {
	if url != "" {
		h.pending = Pending{URL: url, Since: time.Now()}
	}
}
