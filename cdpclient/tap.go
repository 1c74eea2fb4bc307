package cdpclient

import "github.com/cdpmcp/cdpmcp/cdpclient/cdpconn"

// Event is one CDP event of a page's own session, with the time it was read.
type Event = cdpconn.Event

// Tap calls fn for every event of the page's session whose method is one of
// methods, in the order the browser sent them, from a goroutine of its own,
// until stop is called. stop blocks until fn has returned for the last time.
// Events of out-of-process frames (other sessions) are not included.
func (p *Page) Tap(methods []string, fn func(Event)) (stop func(), err error) {
	return cdpconn.Tap(p.s.conn, methods, fn)
}
