package cdpclient

import (
	"errors"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/cdpconn"
)

func because(err error) string {
	if err == nil {
		return ""
	}
	return " (" + err.Error() + ")"
}

// lossReason says what happened to a browser whose connection is gone: a
// launched one's exit status if it exited, else that its connection closed.
func (b *Browser) lossReason() string {
	if b.proc == nil {
		return "the connection to the browser at " + b.m.Attached() + " had closed" + because(b.connCause())
	}
	select {
	case <-b.proc.Exited():
		return "the browser cdpmcp launched had exited (" + b.proc.ExitStatus() + ")"
	case <-time.After(2 * time.Second): // its connection may close just before it exits
	}
	return "the connection to the browser cdpmcp launched had closed" + because(b.connCause())
}

// connCause is why the browser's websocket ended, or nil.
func (b *Browser) connCause() error {
	var c *cdpconn.ConnectionError
	if errors.As(b.m.Err(), &c) {
		return c.Err
	}
	return b.m.Err()
}
