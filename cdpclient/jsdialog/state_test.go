package jsdialog

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A dialog opens and is answered as the session reports it; one that opened
// since the answer stays, and a renderer stopped on purpose takes its dialog
// with it.
func TestStateFollowsEvents(t *testing.T) {
	notified := 0
	s := New[string](func() { notified++ })
	s.OnEvent(nil, "Page.javascriptDialogOpening", []byte(`{"url":"","message":"sure?","type":"confirm","hasBrowserHandler":false,"defaultPrompt":"yes"}`))
	if diff := cmp.Diff(&Dialog{Type: "confirm", Message: "sure?", DefaultPrompt: "yes"}, s.Current()); diff != "" {
		t.Errorf("open dialog (-want +got):\n%s", diff)
	}
	first, _ := s.Reported()
	s.OnEvent(nil, "Page.javascriptDialogOpening", []byte(`{"url":"","message":"again","type":"alert","hasBrowserHandler":false}`))
	s.Answered(first)
	if d := s.Current(); d == nil || d.Message != "again" {
		t.Errorf("after answering the first, Current = %+v; want the second still open", d)
	}
	s.KeepWatch("watch")
	if w, ok := s.TakeKeptWatch(); !ok || w != "watch" {
		t.Errorf("TakeKeptWatch = %q, %v; want watch, true", w, ok)
	}
	if _, ok := s.TakeKeptWatch(); ok {
		t.Error("a kept watch was taken twice")
	}
	if s.Stopped() {
		t.Error("Stopped without SetStopping")
	}
	s.SetStopping()
	if !s.Stopped() || s.Current() != nil || s.IsStopping() {
		t.Error("a stop asked for should end the stop and take the dialog with it")
	}
	if notified != 2 {
		t.Errorf("notified %d times, want 2 (the two dialogs opening)", notified)
	}
}
