package cdpclient

import (
	"encoding/json"

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
