package cdpconn

import (
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/mafredri/cdp/rpcc"
)

// Session is one flattened CDP session on the mux: the browser's own (id "")
// or a target's.
type Session struct {
	id      string
	m       *Mux
	conn    *rpcc.Conn
	onEvent func(method string, params json.RawMessage)
	q       *msgQueue

	wmu     sync.Mutex
	written chan struct{} // closed (and replaced) when a request has been written
}

// ID is the session's id on the wire ("" for the browser's own).
func (s *Session) ID() string { return s.id }

// Conn is the session's protocol connection, for a cdp.Client, an
// rpcc.Invoke or an rpcc stream. Closing it drops the session.
func (s *Session) Conn() *rpcc.Conn { return s.conn }

// codec is a session seen by its *rpcc.Conn: both its transport
// (io.ReadWriteCloser, unused except for Close) and its rpcc.Codec.
type codec Session

var errRawIO = errors.New("cdpconn: session carries no raw bytes")

func (c *codec) Read([]byte) (int, error)  { return 0, errRawIO }
func (c *codec) Write([]byte) (int, error) { return 0, errRawIO }

// Close detaches the session from the mux; rpcc calls it when its Conn closes.
func (c *codec) Close() error {
	c.m.forget((*Session)(c))
	return nil
}

// WriteRequest implements rpcc.Codec.
func (c *codec) WriteRequest(r *rpcc.Request) error {
	s := (*Session)(c)
	err := s.m.write(s, r)
	s.wmu.Lock()
	if s.written != nil {
		close(s.written)
		s.written = nil
	}
	s.wmu.Unlock()
	return err
}

// NextWrite returns a channel closed once the session's next request has been
// written (or failed to be).
func (s *Session) NextWrite() <-chan struct{} {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.written == nil {
		s.written = make(chan struct{})
	}
	return s.written
}

// InOrder sends calls' requests one after another, in order, without waiting
// for their answers, then waits for all of them. A target paused at start (a
// new tab, a popup) answers some commands only once it runs; its set-up must
// reach the browser before the command that resumes it, and cannot wait for
// answers first. Each call makes at most one request on the session.
func (s *Session) InOrder(calls ...func() error) error {
	errs := make([]error, len(calls))
	var wg sync.WaitGroup
	for i, call := range calls {
		sent := s.NextWrite()
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

// ReadResponse implements rpcc.Codec; it blocks until a message for this session
// arrives and returns io.EOF once the session is dropped.
func (c *codec) ReadResponse(r *rpcc.Response) error {
	msg, ok := c.q.pop()
	if !ok {
		if err := c.m.Err(); err != nil {
			return err // the browser's connection is gone, not just this session
		}
		return io.EOF
	}
	*r = *msg
	return nil
}
