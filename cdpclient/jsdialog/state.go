package jsdialog

import (
	"encoding/json"
	"sync"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/page"
)

// State is the dialog that blocks a page, the session that reported it (the
// page's or an out-of-process frame's), the watch (W) an action keeps while
// it is answered, and whether the renderer is being stopped to leave dialogs
// without end. Changes are told to the page (notify).
type State[W any] struct {
	notify func()

	mu       sync.Mutex
	open     *Dialog
	c        *cdp.Client // the session that reported open
	kept     *W          // an action's watch, kept while the dialog it opened is answered
	stopping bool        // the renderer is being stopped: its crash is no failure
}

// New is the state of a page without a dialog; notify is called after each
// change of the dialog.
func New[W any](notify func()) *State[W] { return &State[W]{notify: notify} }

// set records the open dialog (nil: none) and wakes the page's waits.
func (s *State[W]) set(d *Dialog, c *cdp.Client) {
	s.mu.Lock()
	s.open, s.c = d, c
	s.mu.Unlock()
	s.notify()
}

// OnEvent records a dialog opening or closing, in the page or one of its
// out-of-process frames (c is the session that reports it).
func (s *State[W]) OnEvent(c *cdp.Client, method string, params json.RawMessage) {
	if method == "Page.javascriptDialogClosed" {
		s.set(nil, nil)
		return
	}
	var ev page.JavascriptDialogOpeningReply
	if json.Unmarshal(params, &ev) != nil {
		return
	}
	d := &Dialog{Type: string(ev.Type), Message: ev.Message}
	if ev.DefaultPrompt != nil {
		d.DefaultPrompt = *ev.DefaultPrompt
	}
	s.set(d, c)
}

// Current returns a copy of the open dialog, or nil.
func (s *State[W]) Current() *Dialog {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.open == nil {
		return nil
	}
	d := *s.open
	return &d
}

// Reported returns the open dialog itself (to tell it from the next one) and
// the session that reported it.
func (s *State[W]) Reported() (*Dialog, *cdp.Client) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.open, s.c
}

// Answered forgets d once it was answered, unless another opened since.
func (s *State[W]) Answered(d *Dialog) {
	s.mu.Lock()
	same := s.open == d
	if same {
		s.open, s.c = nil, nil
	}
	s.mu.Unlock()
	if same {
		s.notify()
	}
}

// KeepWatch keeps an action's watch while the dialog it opened is open: the
// page cannot run the watch's scripts until it is answered, and what the
// handler does after the dialog belongs to the answer's feedback.
func (s *State[W]) KeepWatch(ws W) {
	s.mu.Lock()
	s.kept = &ws
	s.mu.Unlock()
}

// TakeKeptWatch returns (once) the watch an action kept over its dialog.
func (s *State[W]) TakeKeptWatch() (W, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.kept == nil {
		var none W
		return none, false
	}
	ws := *s.kept
	s.kept = nil
	return ws, true
}

// SetStopping notes that the renderer is being stopped on purpose.
func (s *State[W]) SetStopping() {
	s.mu.Lock()
	s.stopping = true
	s.mu.Unlock()
}

// IsStopping reports whether the renderer is being stopped and not gone yet.
func (s *State[W]) IsStopping() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stopping
}

// Stopped reports whether the renderer's crash was the stop asked for; if so,
// its dialogs went with it.
func (s *State[W]) Stopped() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.stopping {
		return false
	}
	s.stopping, s.open, s.c = false, nil, nil
	return true
}
