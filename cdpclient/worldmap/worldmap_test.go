package worldmap

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Worlds are known as the sessions report their contexts: only those of the
// map's name, each under its session and frame, gone when destroyed or when
// their session's contexts are cleared.
func TestMapFollowsEvents(t *testing.T) {
	m := New("__w")
	created := func(session, name, frame, unique string, id int) {
		m.OnEvent(session, "Runtime.executionContextCreated", []byte(`{"context":{"id":`+strconv.Itoa(id)+
			`,"origin":"","name":"`+name+`","uniqueId":"`+unique+`","auxData":{"frameId":"`+frame+`"}}}`))
	}
	created("", "__w", "F1", "u1", 1)
	created("", "", "F1", "u0", 9) // the page's main world: not ours
	created("S2", "__w", "F2", "u2", 2)
	main := FrameKey{Frame: "F1"}
	if id, ok := m.Lookup(main); !ok || id != 1 {
		t.Errorf("Lookup(main) = %v, %v; want 1, true", id, ok)
	}
	if diff := cmp.Diff([]FrameKey{{Session: "S2", Frame: "F2"}}, m.Unchecked(main, 10)); diff != "" {
		t.Errorf("Unchecked (-want +got):\n%s", diff)
	}
	m.HasModel(2, true)
	if len(m.Unchecked(main, 10)) != 0 || !m.HasOthers(main) {
		t.Error("a world with the model should be checked, and still another frame's")
	}
	m.OnEvent("S2", "Runtime.executionContextsCleared", nil)
	if _, ok := m.Lookup(FrameKey{Session: "S2", Frame: "F2"}); ok || m.HasModel(2, false) || m.HasOthers(main) {
		t.Error("a cleared session's world should be gone")
	}
	m.OnEvent("", "Runtime.executionContextDestroyed", []byte(`{"executionContextId":1,"executionContextUniqueId":"u1"}`))
	if _, ok := m.Lookup(main); ok {
		t.Error("a destroyed world should be gone")
	}
}
