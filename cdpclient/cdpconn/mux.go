package cdpconn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/gorilla/websocket"
	"github.com/mafredri/cdp/rpcc"
)

// maxMessageBytes bounds one outgoing CDP message. Chrome accepts messages up to
// about 100 MiB.
const maxMessageBytes = 32 << 20

// writeBufferBytes is the websocket's write buffer: a message that fits goes out
// as one frame, a longer one in frames of this size, which Chromium joins
// (TestLongMessageInFrames). The buffer lives as long as the connection: at
// maxMessageBytes, 32 MiB of it made the garbage collector let the heap grow to
// twice that before collecting, and the server's memory with it.
const writeBufferBytes = 1 << 20

// Tracer receives every CDP message in both directions; dir is "send" or "recv".
type Tracer interface {
	TraceCDP(dir string, msg []byte)
}

// Mux multiplexes flattened CDP sessions over one websocket. Every session gets its
// own *rpcc.Conn, so the typed cdp.Client works per page unchanged. Request ids are
// rewritten to one connection-wide sequence so responses route without ambiguity.
type Mux struct {
	ws      *websocket.Conn
	writeMu sync.Mutex
	tracer  Tracer
	nextID  atomic.Int64

	mu       sync.Mutex
	pending  map[int64]pendingCall
	sessions map[string]*Session
	err      error // set once the websocket is gone
	done     chan struct{}
	busy     busyClock
	// attached is the endpoint the user gave, for a browser cdpmcp did not
	// launch; it names the browser in ConnectionError.
	attached string
}

type pendingCall struct {
	s       *Session
	localID uint64
}

// wireMessage is one CDP message as read from the websocket.
type wireMessage struct {
	ID        int64               `json:"id,omitempty"`
	SessionID string              `json:"sessionId,omitempty"`
	Method    string              `json:"method,omitempty"`
	Params    json.RawMessage     `json:"params,omitempty"`
	Result    json.RawMessage     `json:"result,omitempty"`
	Error     *rpcc.ResponseError `json:"error,omitempty"`
}

type wireRequest struct {
	ID        int64  `json:"id"`
	Method    string `json:"method"`
	Params    any    `json:"params,omitempty"`
	SessionID string `json:"sessionId,omitempty"`
}

// Dial connects to a browser websocket endpoint (ws://host:port/devtools/browser/…,
// or a browser service's wss:// URL). attached names the browser in errors
// for one cdpmcp did not launch (the user's endpoint, as shown to them), else
// "". header goes with the handshake (a service's token); it is never part of
// an error or a trace.
func Dial(ctx context.Context, wsURL string, tracer Tracer, attached string, header http.Header) (*Mux, error) {
	d := websocket.Dialer{
		ReadBufferSize:  64 << 10,
		WriteBufferSize: writeBufferBytes,
	}
	ws, resp, err := d.DialContext(ctx, wsURL, header)
	if err != nil {
		if resp != nil && resp.StatusCode != http.StatusSwitchingProtocols {
			return nil, &HandshakeError{Status: resp.StatusCode, Text: resp.Status}
		}
		return nil, fmt.Errorf("websocket handshake: %w", err)
	}
	ws.SetReadLimit(-1)
	m := &Mux{
		ws:       ws,
		tracer:   tracer,
		pending:  make(map[int64]pendingCall),
		sessions: make(map[string]*Session),
		done:     make(chan struct{}),
		attached: attached,
	}
	go m.readLoop()
	return m, nil
}

// Attached is the endpoint the user gave for a browser cdpmcp did not
// launch, else "".
func (m *Mux) Attached() string { return m.attached }

// Done is closed when the websocket connection is gone.
func (m *Mux) Done() <-chan struct{} { return m.done }

// Err says why the connection ended, once Done is closed.
func (m *Mux) Err() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.err
}

// Close closes the websocket; every session ends with it.
func (m *Mux) Close() error {
	err := m.ws.Close()
	<-m.done
	return err
}

// Open registers a session (id "" is the browser itself) and returns it.
// onEvent, if not nil, sees every event of the session on the read goroutine before
// the session's rpcc streams do; it must not block.
func (m *Mux) Open(id string, onEvent func(method string, params json.RawMessage)) (*Session, error) {
	s := &Session{id: id, m: m, onEvent: onEvent, q: newMsgQueue()}
	m.mu.Lock()
	if m.err != nil {
		m.mu.Unlock()
		return nil, m.err
	}
	if _, dup := m.sessions[id]; dup {
		m.mu.Unlock()
		return nil, fmt.Errorf("session %q already open", id)
	}
	m.sessions[id] = s
	m.mu.Unlock()

	conn, err := rpcc.DialContext(context.Background(), "mux:"+id,
		rpcc.WithDialer(func(context.Context, string) (io.ReadWriteCloser, error) { return (*codec)(s), nil }),
		rpcc.WithCodec(func(io.ReadWriter) rpcc.Codec { return (*codec)(s) }),
	)
	if err != nil {
		m.forget(s)
		return nil, err
	}
	s.conn = conn
	return s, nil
}

// forget forgets a session and ends its connection. Calls still pending on it fail.
func (m *Mux) forget(s *Session) {
	m.mu.Lock()
	if m.sessions[s.id] == s {
		delete(m.sessions, s.id)
	}
	for gid, p := range m.pending {
		if p.s == s {
			delete(m.pending, gid)
		}
	}
	m.mu.Unlock()
	s.q.close()
}

// Drop drops the session with the given id, if it is open: its connection
// ends and calls still pending on it fail.
func (m *Mux) Drop(id string) {
	m.mu.Lock()
	s := m.sessions[id]
	m.mu.Unlock()
	if s != nil {
		m.forget(s)
	}
}

func (m *Mux) write(s *Session, r *rpcc.Request) error {
	gid := m.nextID.Add(1)
	msg, err := json.Marshal(wireRequest{ID: gid, Method: r.Method, Params: r.Args, SessionID: s.id})
	if err != nil {
		return fmt.Errorf("encode %s: %w", r.Method, err)
	}
	if len(msg) > maxMessageBytes {
		return fmt.Errorf("%s: message of %d bytes exceeds the %d byte limit", r.Method, len(msg), maxMessageBytes)
	}
	m.mu.Lock()
	if m.err != nil {
		m.mu.Unlock()
		return m.err
	}
	m.pending[gid] = pendingCall{s: s, localID: r.ID}
	m.pendingChanged()
	m.mu.Unlock()

	if m.tracer != nil {
		m.tracer.TraceCDP("send", msg)
	}
	m.writeMu.Lock()
	err = m.ws.WriteMessage(websocket.TextMessage, msg)
	m.writeMu.Unlock()
	if err != nil {
		m.mu.Lock()
		delete(m.pending, gid)
		m.pendingChanged()
		m.mu.Unlock()
		// A websocket that cannot be written to is a connection gone.
		return fmt.Errorf("send %s: %w", r.Method, &ConnectionError{Err: err, Attached: m.attached})
	}
	return nil
}

func (m *Mux) readLoop() {
	var err error
	for {
		var data []byte
		_, data, err = m.ws.ReadMessage()
		if err != nil {
			break
		}
		if m.tracer != nil {
			m.tracer.TraceCDP("recv", data)
		}
		var msg wireMessage
		if jerr := json.Unmarshal(data, &msg); jerr != nil {
			slog.Warn("cdp: undecodable message", "err", jerr)
			continue
		}
		m.route(&msg)
	}
	if errors.Is(err, websocket.ErrCloseSent) || websocket.IsCloseError(err, websocket.CloseNormalClosure) {
		err = nil
	}
	m.shutdown(&ConnectionError{Err: err, Attached: m.attached})
}

func (m *Mux) route(msg *wireMessage) {
	m.mu.Lock()
	if msg.Method == "" {
		p, ok := m.pending[msg.ID]
		delete(m.pending, msg.ID)
		m.pendingChanged()
		m.mu.Unlock()
		if ok {
			p.s.q.push(&rpcc.Response{ID: p.localID, Result: msg.Result, Error: msg.Error})
		}
		return
	}
	s := m.sessions[msg.SessionID]
	m.mu.Unlock()
	if s == nil {
		return
	}
	if s.onEvent != nil {
		s.onEvent(msg.Method, msg.Params)
	}
	s.q.push(&rpcc.Response{Method: msg.Method, Args: msg.Params})
}

func (m *Mux) shutdown(err error) {
	m.mu.Lock()
	m.err = err
	sessions := m.sessions
	m.sessions = map[string]*Session{}
	m.pending = map[int64]pendingCall{}
	m.pendingChanged()
	m.mu.Unlock()
	for _, s := range sessions {
		s.q.close()
	}
	close(m.done)
}
