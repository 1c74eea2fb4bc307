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

// A navigation of the main frame is pending from its start until it commits
// or stops; the page's own request for one counts only while the frame loads
// (a "leave site?" prompt may stop it before it starts); same-document
// navigations and child frames' are never pending.
func TestPendingNavigation(t *testing.T) {
	type step struct{ method, params, want string } // want: the pending URL, "" for none
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"committed", []step{
			{"Page.frameRequestedNavigation", `{"frameId":"T1","reason":"anchorClick","url":"http://a.test/slow","disposition":"currentTab"}`, "http://a.test/slow"},
			{"Page.frameStartedNavigating", `{"frameId":"T1","url":"http://a.test/slow","loaderId":"L2","navigationType":"differentDocument"}`, "http://a.test/slow"},
			{"Page.frameStartedLoading", `{"frameId":"T1"}`, "http://a.test/slow"},
			{"Page.frameNavigated", `{"frame":{"id":"T1","loaderId":"L2","url":"http://a.test/slow","securityOrigin":"","mimeType":"text/html"},"type":"Navigation"}`, ""},
		}},
		{"stopped", []step{
			{"Page.frameStartedNavigating", `{"frameId":"T1","url":"http://a.test/slow","loaderId":"L2","navigationType":"differentDocument"}`, ""},
			{"Page.frameStartedLoading", `{"frameId":"T1"}`, "http://a.test/slow"},
			{"Page.frameStoppedLoading", `{"frameId":"T1"}`, ""},
			{"Page.frameStartedLoading", `{"frameId":"T1"}`, ""},
		}},
		{"refused by a prompt", []step{
			{"Page.frameRequestedNavigation", `{"frameId":"T1","reason":"anchorClick","url":"http://a.test/x","disposition":"currentTab"}`, "http://a.test/x"},
			{"Page.frameStoppedLoading", `{"frameId":"T1"}`, ""},
		}},
		{"same document, child frame, new tab", []step{
			{"Page.frameStartedLoading", `{"frameId":"T1"}`, ""},
			{"Page.frameStartedNavigating", `{"frameId":"T1","url":"http://a.test/#b","loaderId":"L1","navigationType":"sameDocument"}`, ""},
			{"Page.frameStartedNavigating", `{"frameId":"CHILD","url":"http://b.test/","loaderId":"L3","navigationType":"differentDocument"}`, ""},
			{"Page.frameRequestedNavigation", `{"frameId":"T1","reason":"anchorClick","url":"http://a.test/new","disposition":"newTab"}`, ""},
		}},
	} {
		s := New(target.Info{TargetID: "T1", URL: "about:blank"}, func() {})
		for i, st := range tc.steps {
			s.OnEvent(st.method, []byte(st.params))
			got, ok := s.Pending()
			if !ok {
				got.URL = ""
			}
			if got.URL != st.want {
				t.Errorf("%s, step %d (%s): pending %q, want %q", tc.name, i, st.method, got.URL, st.want)
			}
		}
	}
}
