package wakeup

import "testing"

// A channel taken before Notify is closed by it; one taken after waits for
// the next.
func TestNotifyWakesWatchers(t *testing.T) {
	s := New()
	before := s.Watch()
	done := make(chan struct{})
	go func() {
		<-before
		close(done)
	}()
	s.Notify()
	<-done
	after := s.Watch()
	select {
	case <-after:
		t.Fatal("a channel taken after Notify is closed already")
	default:
	}
	s.Notify()
	<-after
}
