// Package worldmap is which isolated world of cdpmcp's each frame of a page
// has, as the page's sessions report execution contexts coming and going:
// each frame's context, by frame and by the browser's unique id, and which
// of them have the page model installed.
//
// It is a library the core (cdpclient) imports: it sends nothing to the
// browser (the core creates worlds and installs the page model) and never
// imports cdpclient.
package worldmap

import (
	"encoding/json"
	"sync"

	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/protocol/runtime"
)

// FrameKey names a frame: the session that hosts it ("" for the page's own
// session) and its frame id.
type FrameKey struct {
	Session string
	Frame   page.FrameID
}

// Map is the isolated worlds named name in a page's frames. The events of the
// page's sessions write it (OnEvent).
type Map struct {
	name string

	mu        sync.Mutex
	byFrame   map[FrameKey]runtime.ExecutionContextID
	byUnique  map[string]runtime.ExecutionContextID
	installed map[runtime.ExecutionContextID]bool
}

// New is an empty map of the worlds named name.
func New(name string) *Map {
	return &Map{
		name:      name,
		byFrame:   map[FrameKey]runtime.ExecutionContextID{},
		byUnique:  map[string]runtime.ExecutionContextID{},
		installed: map[runtime.ExecutionContextID]bool{},
	}
}

// OnEvent records isolated worlds as their contexts come and go, for the
// page's session (session "") or a child's.
func (ws *Map) OnEvent(session, method string, params json.RawMessage) {
	switch method {
	case "Runtime.executionContextCreated":
		var ev runtime.ExecutionContextCreatedReply
		if json.Unmarshal(params, &ev) != nil || ev.Context.Name != ws.name {
			return
		}
		var aux auxData
		if json.Unmarshal(ev.Context.AuxData, &aux) != nil {
			return
		}
		ws.mu.Lock()
		ws.byFrame[FrameKey{session, aux.FrameID}] = ev.Context.ID
		ws.byUnique[ev.Context.UniqueID] = ev.Context.ID
		ws.mu.Unlock()
	case "Runtime.executionContextDestroyed":
		var ev struct {
			UniqueID string `json:"executionContextUniqueId"`
		}
		if json.Unmarshal(params, &ev) != nil {
			return
		}
		ws.mu.Lock()
		if id, ok := ws.byUnique[ev.UniqueID]; ok {
			delete(ws.byUnique, ev.UniqueID)
			for k, v := range ws.byFrame {
				if k.Session == session && v == id {
					delete(ws.byFrame, k)
					delete(ws.installed, id)
				}
			}
		}
		ws.mu.Unlock()
	case "Runtime.executionContextsCleared":
		ws.ForgetSession(session)
	}
}

// auxData is the part of an execution context's auxData that names its frame.
type auxData struct {
	FrameID page.FrameID `json:"frameId"`
}

// ForgetSession drops the isolated worlds known in a session.
func (ws *Map) ForgetSession(session string) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	for k, id := range ws.byFrame {
		if k.Session == session {
			delete(ws.byFrame, k)
			delete(ws.installed, id)
		}
	}
}

// Forget drops a frame's world.
func (ws *Map) Forget(key FrameKey) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if id, ok := ws.byFrame[key]; ok {
		delete(ws.installed, id)
	}
	delete(ws.byFrame, key)
}

// Lookup returns a frame's world, if it has one.
func (ws *Map) Lookup(key FrameKey) (runtime.ExecutionContextID, bool) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	id, ok := ws.byFrame[key]
	return id, ok
}

// Add records the world created in a frame.
func (ws *Map) Add(key FrameKey, id runtime.ExecutionContextID) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	ws.byFrame[key] = id
}

// HasModel reports whether the page model is installed in a world; set
// records that it is.
func (ws *Map) HasModel(id runtime.ExecutionContextID, set bool) bool {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if set {
		ws.installed[id] = true
	}
	return ws.installed[id]
}

// Unchecked lists the frames, other than main, whose isolated world is known
// (the browser reported it) but not yet checked for the page model (at most
// n of them).
func (ws *Map) Unchecked(main FrameKey, n int) []FrameKey {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	var out []FrameKey
	for k, id := range ws.byFrame {
		if k != main && !ws.installed[id] && len(out) < n {
			out = append(out, k)
		}
	}
	return out
}

// HasOthers reports whether the page has a known world in a frame other
// than main.
func (ws *Map) HasOthers(main FrameKey) bool {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	for k := range ws.byFrame {
		if k != main {
			return true
		}
	}
	return false
}
