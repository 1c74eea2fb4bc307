package navstate

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mafredri/cdp/protocol/target"
)

// A document's events, as a tab's session reports them, move the state on:
// a new loader starts a document, "load" completes it, a fragment change is
// a same-document navigation, and a child frame's events count for nothing.
func TestStateFollowsEvents(t *testing.T) {
	notified := 0
	s := New(target.Info{TargetID: "T1", URL: "about:blank"}, func() { notified++ })
	before := s.Mark()
	for _, ev := range []struct{ method, params string }{
		{"Page.frameStartedLoading", `{"frameId":"T1"}`},
		{"Page.lifecycleEvent", `{"frameId":"T1","loaderId":"L2","name":"init"}`},
		{"Page.frameNavigated", `{"frame":{"id":"T1","loaderId":"L2","url":"http://a.test/","securityOrigin":"","mimeType":"text/html"},"type":"Navigation"}`},
		{"Page.lifecycleEvent", `{"frameId":"CHILD","loaderId":"L9","name":"init"}`},
		{"Page.lifecycleEvent", `{"frameId":"T1","loaderId":"L2","name":"load"}`},
		{"Page.frameStoppedLoading", `{"frameId":"T1"}`},
	} {
		s.OnEvent(ev.method, []byte(ev.params))
	}
	if !s.Loaded(before, "load", false) || s.LoadingSince(before) {
		t.Errorf("after a load: Loaded %v, LoadingSince %v; want true, false", s.Loaded(before, "load", false), s.LoadingSince(before))
	}
	if diff := cmp.Diff(Mark{Docs: 1, Loads: 1}, s.Mark()); diff != "" {
		t.Errorf("mark after one document (-want +got):\n%s", diff)
	}
	loaded := s.Mark()
	s.OnEvent("Page.navigatedWithinDocument", []byte(`{"frameId":"T1","url":"http://a.test/#b"}`))
	if moved, at := s.Moved(loaded); !moved || at != "http://a.test/#b" {
		t.Errorf("Moved after a fragment change = %v, %q; want true, http://a.test/#b", moved, at)
	}
	if !s.Loaded(loaded, "load", true) || s.Loaded(loaded, "load", false) {
		t.Error("a same-document navigation should count as loaded only with sameDocOK")
	}
	if notified == 0 {
		t.Error("no change was notified")
	}
}
