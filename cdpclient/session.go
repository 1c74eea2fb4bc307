package cdpclient

import (
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/mafredri/cdp/rpcc"
)

// session is one flattened CDP session on the mux. It is both the transport
// (io.ReadWriteCloser, unused except for Close) and the rpcc.Codec of its *rpcc.Conn.
type session struct {
	id      string
	m       *mux
	conn    *rpcc.Conn
	onEvent func(method string, params json.RawMessage)
	q       *msgQueue

	wmu     sync.Mutex
	written chan struct{} // closed (and replaced) when a request has been written
}

var errRawIO = errors.New("cdpclient: session carries no raw bytes")

func (s *session) Read([]byte) (int, error)  { return 0, errRawIO }
func (s *session) Write([]byte) (int, error) { return 0, errRawIO }

// Close detaches the session from the mux; rpcc calls it when its Conn closes.
func (s *session) Close() error {
	s.m.drop(s)
	return nil
}

// WriteRequest implements rpcc.Codec.
func (s *session) WriteRequest(r *rpcc.Request) error {
	err := s.m.write(s, r)
	s.wmu.Lock()
	if s.written != nil {
		close(s.written)
		s.written = nil
	}
	s.wmu.Unlock()
	return err
}

// nextWrite returns a channel closed once the session's next request has been
// written (or failed to be).
func (s *session) nextWrite() <-chan struct{} {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.written == nil {
		s.written = make(chan struct{})
	}
	return s.written
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
		sent := s.nextWrite()
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
func (s *session) ReadResponse(r *rpcc.Response) error {
	msg, ok := s.q.pop()
	if !ok {
		if err := s.m.Err(); err != nil {
			return err // the browser's connection is gone, not just this session
		}
		return io.EOF
	}
	*r = *msg
	return nil
}

// msgQueue is an unbounded FIFO so one slow session never blocks the read loop.
type msgQueue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	items  []*rpcc.Response
	closed bool
}

func newMsgQueue() *msgQueue {
	q := &msgQueue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

func (q *msgQueue) push(r *rpcc.Response) {
	q.mu.Lock()
	if !q.closed {
		q.items = append(q.items, r)
		q.cond.Signal()
	}
	q.mu.Unlock()
}

func (q *msgQueue) pop() (*rpcc.Response, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 && !q.closed {
		q.cond.Wait()
	}
	if len(q.items) == 0 {
		return nil, false
	}
	r := q.items[0]
	q.items[0] = nil
	q.items = q.items[1:]
	return r, true
}

func (q *msgQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.cond.Broadcast()
	q.mu.Unlock()
}
