package cdpclient

import (
	"encoding/json"
	"errors"
	"sync"

	"github.com/cdpmcp/cdpmcp/cdpclient/cdpconn"
	"github.com/mafredri/cdp/rpcc"
)

// session is one CDP session the core speaks on: the browser's own, a page's,
// or an out-of-process frame's. The wire (cdpclient/cdpconn) carries it.
type session struct {
	id   string     // the session's id on the wire ("" for the browser's own)
	conn *rpcc.Conn // its protocol connection, for cdp.NewClient and raw calls
	wire *cdpconn.Session
}

// open opens the session with the given id on the browser's connection.
// onEvent, if not nil, sees every event of the session on the read goroutine
// before the session's rpcc streams do; it must not block.
func (b *Browser) open(id string, onEvent func(method string, params json.RawMessage)) (*session, error) {
	s, err := b.m.Open(id, onEvent)
	if err != nil {
		return nil, err
	}
	return &session{id: s.ID(), conn: s.Conn(), wire: s}, nil
}

// inOrder sends calls' requests one after another, in order, without waiting
// for their answers, then waits for all of them. A target paused at start (a
// new tab, a popup) answers some commands only once it runs; its set-up must
// reach the browser before the command that resumes it, and cannot wait for
// answers first. Each call makes at most one request on the session.
func (s *session) inOrder(calls ...func() error) error {
	errs := make([]error, len(calls))
	var wg sync.WaitGroup
	for i, call := range calls {
		sent := s.wire.NextWrite()
		done := make(chan struct{})
		wg.Go(func() {
			defer close(done)
			errs[i] = call()
		})
		select {
		case <-sent:
		case <-done: // failed before writing
		}
	}
	wg.Wait()
	return errors.Join(errs...)
}
