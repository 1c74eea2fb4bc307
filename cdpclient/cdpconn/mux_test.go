package cdpconn

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/browserproc"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/runtime"
	"github.com/mafredri/cdp/protocol/target"
	"github.com/mafredri/cdp/rpcc"
)

// tracer keeps the messages it is shown.
type tracer struct {
	mu   sync.Mutex
	msgs []string
}

func (t *tracer) TraceCDP(dir string, msg []byte) {
	t.mu.Lock()
	t.msgs = append(t.msgs, dir+" "+string(msg))
	t.mu.Unlock()
}

func (t *tracer) saw(dir, part string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, m := range t.msgs {
		if strings.HasPrefix(m, dir+" ") && strings.Contains(m, part) {
			return true
		}
	}
	return false
}

// connect launches a headless browser and dials its websocket.
func connect(t *testing.T, tr Tracer) (*Mux, *browserproc.Process) {
	t.Helper()
	proc, err := browserproc.Launch(testbound.Context(t), browserproc.Options{Headless: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(proc.Close)
	m, err := Dial(testbound.Context(t), proc.Endpoint(), tr, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	return m, proc
}

// attachTab opens a blank tab and a flattened session on it.
func attachTab(ctx context.Context, t *testing.T, m *Mux, browser *cdp.Client, onEvent func(string, json.RawMessage)) *Session {
	t.Helper()
	tab, err := browser.Target.CreateTarget(ctx, target.NewCreateTargetArgs("about:blank"))
	if err != nil {
		t.Fatal(err)
	}
	att, err := browser.Target.AttachToTarget(ctx, target.NewAttachToTargetArgs(tab.TargetID).SetFlatten(true))
	if err != nil {
		t.Fatal(err)
	}
	s, err := m.Open(string(att.SessionID), onEvent)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func eval(ctx context.Context, s *Session, expr string) (string, error) {
	r, err := cdp.NewClient(s.Conn()).Runtime.Evaluate(ctx, runtime.NewEvaluateArgs(expr))
	if err != nil {
		return "", err
	}
	return string(r.Result.Value), nil
}

// Two tabs' sessions on one websocket: each call's answer reaches the session
// that asked (their rpcc ids collide, the wire's do not), each session's
// events reach its own onEvent, and the tracer sees both directions.
func TestSessionsShareOneWebsocket(t *testing.T) {
	t.Parallel()
	ctx := testbound.Context(t)
	tr := &tracer{}
	m, _ := connect(t, tr)
	root, err := m.Open("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Open("", nil); err == nil {
		t.Error("opening the browser's session twice: no error")
	}
	browser := cdp.NewClient(root.Conn())

	var mu sync.Mutex
	events := map[string][]string{}
	onEvent := func(name string) func(string, json.RawMessage) {
		return func(method string, _ json.RawMessage) {
			mu.Lock()
			events[name] = append(events[name], method)
			mu.Unlock()
		}
	}
	a := attachTab(ctx, t, m, browser, onEvent("a"))
	b := attachTab(ctx, t, m, browser, onEvent("b"))
	if a.ID() == "" || a.ID() == b.ID() {
		t.Fatalf("session ids %q and %q", a.ID(), b.ID())
	}

	var wg sync.WaitGroup
	for i := range 20 {
		for name, s := range map[string]*Session{"a": a, "b": b} {
			wg.Go(func() {
				want := `"` + name + strconv.Itoa(i) + `"`
				if got, err := eval(ctx, s, "'"+name+"'+"+strconv.Itoa(i)); err != nil || got != want {
					t.Errorf("session %s, call %d: %s, %v; want %s", name, i, got, err, want)
				}
			})
		}
	}
	wg.Wait()

	if err := cdp.NewClient(a.Conn()).Runtime.Enable(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	gotA, gotB := strings.Join(events["a"], " "), strings.Join(events["b"], " ")
	mu.Unlock()
	if !strings.Contains(gotA, "Runtime.executionContextCreated") || strings.Contains(gotB, "Runtime.executionContextCreated") {
		t.Errorf("events: a saw %q, b saw %q; want the context event on a only", gotA, gotB)
	}
	if !tr.saw("send", `"sessionId":"`+a.ID()+`"`) || !tr.saw("recv", `"sessionId":"`+b.ID()+`"`) {
		t.Error("the tracer did not see the sessions' messages both ways")
	}

	// A dropped session's calls fail; the other keeps working.
	m.Drop(a.ID())
	if _, err := eval(ctx, a, "1"); err == nil {
		t.Error("a call on a dropped session succeeded")
	}
	if got, err := eval(ctx, b, "2"); err != nil || got != "2" {
		t.Errorf("the other session after the drop: %s, %v", got, err)
	}
}

// NextWrite is closed once the session's next request has been written, not
// before; a message longer than the write buffer goes out in frames the
// browser joins (TestLongMessageInFrames); one over the limit fails alone and
// the connection stays.
func TestNextWriteAndTheMessageLimit(t *testing.T) {
	t.Parallel()
	ctx := testbound.Context(t)
	m, _ := connect(t, nil)
	root, err := m.Open("", nil)
	if err != nil {
		t.Fatal(err)
	}
	s := attachTab(ctx, t, m, cdp.NewClient(root.Conn()), nil)

	written := s.NextWrite()
	select {
	case <-written:
		t.Fatal("NextWrite was closed before any request")
	default:
	}
	if _, err := eval(ctx, s, "1"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-written:
	default:
		t.Fatal("NextWrite was not closed once a request had been answered")
	}

	// TestLongMessageInFrames: three write buffers' worth in one message.
	long := strings.Repeat("y", 3*writeBufferBytes)
	if got, err := eval(ctx, s, "'"+long+"'.length"); err != nil || got != strconv.Itoa(len(long)) {
		t.Errorf("a message of %d bytes, longer than the write buffer: %s, %v", len(long), got, err)
	}

	huge := strings.Repeat("x", maxMessageBytes)
	if _, err := eval(ctx, s, "'"+huge+"'"); err == nil || !strings.Contains(err.Error(), "byte limit") {
		t.Errorf("a message over the limit: %v; want the byte limit named", err)
	}
	if got, err := eval(ctx, s, "3"); err != nil || got != "3" {
		t.Errorf("a call after the refused message: %s, %v", got, err)
	}
}

// A browser that exits ends the connection: Done closes, Err and every call
// after are a *ConnectionError that says the launched browser is gone.
func TestBrowserGoneIsAConnectionError(t *testing.T) {
	t.Parallel()
	ctx := testbound.Context(t)
	m, proc := connect(t, nil)
	root, err := m.Open("", nil)
	if err != nil {
		t.Fatal(err)
	}
	proc.Close()
	select {
	case <-m.Done():
	case <-ctx.Done():
		t.Fatal("the connection did not end after the browser closed")
	}
	var ce *ConnectionError
	if !errors.As(m.Err(), &ce) || ce.Attached != "" || !strings.Contains(ce.Error(), "the browser cdpmcp launched exited or closed its connection") {
		t.Errorf("Err after the browser closed: %v", m.Err())
	}
	err = rpcc.Invoke(ctx, "Browser.getVersion", nil, nil, root.Conn())
	if !errors.As(err, &ce) {
		t.Errorf("a call after the browser closed: %v; want a *ConnectionError", err)
	}
	if _, err := m.Open("late", nil); !errors.As(err, &ce) {
		t.Errorf("opening a session after the browser closed: %v; want a *ConnectionError", err)
	}
}
