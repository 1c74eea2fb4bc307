package cdpclient

import (
	"encoding/json"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/protocol/target"
)

// onEvent runs on the mux read goroutine for every event of the page's session.
// It only records state; it never blocks and never calls CDP.
func (p *Page) onEvent(method string, params json.RawMessage) {
	p.tell("", method, params)
	switch method {
	case "Page.lifecycleEvent":
		var ev page.LifecycleEventReply
		if json.Unmarshal(params, &ev) == nil {
			p.onLifecycle(ev)
		}
	case "Page.frameNavigated":
		var ev page.FrameNavigatedReply
		if json.Unmarshal(params, &ev) == nil && ev.Frame.ParentID == nil {
			p.mu.Lock()
			p.mainFrame = ev.Frame.ID
			p.info.URL = ev.Frame.URL
			if ev.Frame.URLFragment != nil {
				p.info.URL += *ev.Frame.URLFragment
			}
			if ev.Type == "BackForwardCacheRestore" {
				// A restored page fires no lifecycle events: it is loaded already.
				p.docs++
				p.loader = ev.Frame.LoaderID
				p.lifecycle = map[string]bool{"DOMContentLoaded": true, "load": true, "networkIdle": true}
			}
			p.notifyLocked()
			p.mu.Unlock()
		}
	case "Page.navigatedWithinDocument":
		var ev page.NavigatedWithinDocumentReply
		if json.Unmarshal(params, &ev) == nil {
			p.mu.Lock()
			if ev.FrameID == p.mainFrame {
				p.info.URL = ev.URL
				p.sameDoc++
				p.notifyLocked()
			}
			p.mu.Unlock()
		}
	case "Page.frameStartedLoading", "Page.frameStoppedLoading", "Page.frameRequestedNavigation":
		var ev struct {
			FrameID     page.FrameID `json:"frameId"`
			Disposition string       `json:"disposition"`
		}
		if json.Unmarshal(params, &ev) != nil {
			return
		}
		p.mu.Lock()
		if ev.FrameID == p.mainFrame {
			switch method {
			case "Page.frameStartedLoading":
				p.loads++
				p.loading = true
			case "Page.frameStoppedLoading":
				p.loading = false
			default:
				if ev.Disposition == "" || ev.Disposition == "currentTab" {
					p.requested++
					p.loading = true
				}
			}
			p.notifyLocked()
		}
		p.mu.Unlock()
	case "Page.windowOpen":
		p.mu.Lock()
		p.windowOpens++
		p.notifyLocked()
		p.mu.Unlock()
	case "Inspector.targetCrashed":
		p.mu.Lock()
		if p.stopping {
			// Stopped on purpose to leave dialogs without end: a navigation
			// is under way and loads the tab in a new renderer.
			p.stopping, p.dialog, p.dialogC = false, nil, nil
		} else {
			p.crashed = true
		}
		p.notifyLocked()
		p.mu.Unlock()
	case "Inspector.targetReloadedAfterCrash":
		p.uncrash()
	default:
		p.onSessionEvent("", p.c, method, params)
	}
}

// onSessionEvent records what the page's session and its child sessions (out-of-
// process frames, workers) report alike: nested children, execution contexts,
// requests the guard paused, console and network traffic. session is "" for the
// page's own.
func (p *Page) onSessionEvent(session string, c *cdp.Client, method string, params json.RawMessage) {
	if session != "" {
		p.tell(session, method, params)
	}
	switch method {
	case "Target.attachedToTarget":
		var ev target.AttachedToTargetReply
		if json.Unmarshal(params, &ev) == nil {
			p.attachChild(session, &ev)
		}
	case "Target.detachedFromTarget":
		var ev target.DetachedFromTargetReply
		if json.Unmarshal(params, &ev) == nil {
			p.detachChild(string(ev.SessionID))
		}
	case "Runtime.executionContextCreated", "Runtime.executionContextDestroyed", "Runtime.executionContextsCleared":
		p.onWorldEvent(session, method, params)
	case "Fetch.requestPaused":
		p.bc.b.onPaused(c, params, p)
	case "Fetch.authRequired":
		p.bc.b.onAuthRequired(c, params)
	case "Page.javascriptDialogOpening", "Page.javascriptDialogClosed":
		p.onDialogEvent(c, method, params)
	case "Page.fileChooserOpened":
		p.onFileChooser(c, params)
	case "Runtime.bindingCalled":
		if !p.busy.OnBinding(params) {
			p.bc.onBinding(params)
		}
	default:
		p.logs.OnEvent(method, params)
	}
}

func (p *Page) onLifecycle(ev page.LifecycleEventReply) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mainFrame != "" && ev.FrameID != p.mainFrame {
		return
	}
	if ev.Name == "init" || ev.LoaderID != p.loader {
		if ev.LoaderID != p.loader || ev.Name == "init" && len(p.lifecycle) > 0 {
			p.docs++
		}
		p.loader = ev.LoaderID
		p.lifecycle = map[string]bool{}
	}
	p.lifecycle[ev.Name] = true
	p.notifyLocked()
}
