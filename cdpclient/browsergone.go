package cdpclient

import (
	"errors"
	"fmt"
	"time"
)

// ConnectionError reports that the browser connection is gone: the browser
// exited or was closed, or the endpoint of an attached one went away. Its
// message says which browser, and its hint what cdpmcp does about it.
type ConnectionError struct {
	// Err is why the websocket ended (nil when it closed normally).
	Err error
	// Attached is the endpoint of a browser cdpmcp attached to; empty for a
	// browser it launched.
	Attached string
	// Reconnect, when set, is why connecting again failed.
	Reconnect error
}

func (e *ConnectionError) Error() string {
	switch {
	case e.Reconnect != nil:
		return fmt.Sprintf("lost the connection to the browser at %s, and it does not answer yet: %v", e.Attached, e.Reconnect)
	case e.Attached != "":
		return "the connection to the browser at " + e.Attached + " closed" + because(e.Err)
	}
	return "the browser cdpmcp launched exited or closed its connection" + because(e.Err)
}

func (e *ConnectionError) Unwrap() []error {
	var out []error
	for _, err := range []error{e.Err, e.Reconnect} {
		if err != nil {
			out = append(out, err)
		}
	}
	return out
}

// hint says what happens next: a launched browser is started anew on the
// next call; an attached one is connected to again once it answers.
func (e *ConnectionError) hint() string {
	if e.Attached != "" {
		return "start Chrome again with --remote-debugging-port (or fix --cdp-endpoint) and call again: cdpmcp reconnects on the next call, no restart needed; its tabs and refs from before are gone"
	}
	return "call again: cdpmcp starts a new browser on the next call; tabs and refs from before are gone"
}

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
		return "the connection to the browser at " + b.m.attached + " had closed" + because(b.connCause())
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
	var c *ConnectionError
	if errors.As(b.m.Err(), &c) {
		return c.Err
	}
	return b.m.Err()
}
