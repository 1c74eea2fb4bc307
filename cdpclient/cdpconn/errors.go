package cdpconn

import "fmt"

// ConnectionError reports that the browser connection is gone: the browser
// exited or was closed, or the endpoint of an attached one went away. Its
// message says which browser.
type ConnectionError struct {
	// Err is why the websocket ended (nil when it closed normally).
	Err error
	// Attached is the endpoint of a browser cdpmcp attached to; empty for a
	// browser it launched.
	Attached string
	// Reconnect, when set, is why connecting again failed (set by the caller
	// that tried).
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

func because(err error) string {
	if err == nil {
		return ""
	}
	return " (" + err.Error() + ")"
}

// HandshakeError is a websocket handshake the endpoint answered with an HTTP
// status instead of switching protocols: a browser service refusing a
// missing or wrong token (401, 403), or a URL that is not a websocket.
type HandshakeError struct {
	Status int
	Text   string // "401 Unauthorized"
}

func (e *HandshakeError) Error() string {
	return "the websocket handshake was answered " + e.Text
}

// HandshakeStatus is the status the endpoint answered.
func (e *HandshakeError) HandshakeStatus() (int, string) { return e.Status, e.Text }
