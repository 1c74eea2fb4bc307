package cdpclient

import (
	"encoding/json"

	"github.com/cdpmcp/cdpmcp/cdpclient/cdpconn"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/target"
)

// onEvent runs on the mux read goroutine for every event of the page's session.
// It only records state; it never blocks and never calls CDP.
func (p *Page) onEvent(method string, params json.RawMessage) {
	p.tell("", method, params)
	switch method {
	case "Page.lifecycleEvent", "Page.frameNavigated", "Page.navigatedWithinDocument",
		"Page.frameStartedLoading", "Page.frameStoppedLoading", "Page.frameRequestedNavigation",
		"Page.frameStartedNavigating", "Page.windowOpen":
		p.hist.OnEvent(method, params)
	case "Inspector.targetCrashed":
		// Stopped on purpose to leave dialogs without end, it is no crash: a
		// navigation is under way and loads the tab in a new renderer.
		if !p.dialogs.Stopped() {
			p.life.Crash()
		}
		p.changed.Notify()
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
		p.worlds.OnEvent(session, method, params)
	case "Fetch.requestPaused":
		p.bc.b.guard.OnPaused(c, params, pausedFor{p})
	case "Fetch.authRequired":
		p.bc.b.guard.OnAuthRequired(c, params)
	case "Page.javascriptDialogOpening", "Page.javascriptDialogClosed":
		p.dialogs.OnEvent(c, method, params)
	case "Runtime.bindingCalled":
		if !p.busy.OnBinding(params) {
			p.bc.onBinding(params)
		}
	default:
		p.logs.OnEvent(method, params)
	}
}

// Event is one CDP event of a page's own session, with the time it was read.
type Event = cdpconn.Event

// Tap calls fn for every event of the page's session whose method is one of
// methods, in the order the browser sent them, from a goroutine of its own,
// until stop is called. stop blocks until fn has returned for the last time.
// Events of out-of-process frames (other sessions) are not included.
func (p *Page) Tap(methods []string, fn func(Event)) (stop func(), err error) {
	return cdpconn.Tap(p.s.conn, methods, fn)
}
