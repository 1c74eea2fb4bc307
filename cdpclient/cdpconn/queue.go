package cdpconn

import (
	"sync"

	"github.com/mafredri/cdp/rpcc"
)

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
