// Package cdpconn is the DevTools protocol's wire: one websocket to a browser
// (Dial) carrying its flattened sessions (Mux.Open, Drop), each with its own
// *rpcc.Conn so the typed cdp.Client works per target unchanged. Request ids
// are rewritten to one sequence for the whole connection so every answer finds
// its session; events reach a session's onEvent on the read goroutine before
// its rpcc streams; a Tracer sees every message both ways. A session says when
// its next request has been written (Session.NextWrite), for callers that must
// order requests without waiting for answers. Tap hands a session's events
// of some methods to a function, in the order the browser sent them. A
// connection that is gone is a *ConnectionError on every call and on Mux.Err.
//
// It is a library the core (cdpclient) imports, like cdpclient/browserproc:
// it imports the standard library, gorilla/websocket and mafredri/cdp's rpcc,
// never cdpclient, and knows no domain of the protocol: what the messages say
// is the core's.
package cdpconn
