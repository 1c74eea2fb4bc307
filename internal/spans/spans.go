// Package spans says where a call's time went: a Recorder carried in a context
// sums the time of a few named phases (waiting for the browser, settling,
// watching the page, building feedback, redaction, the snapshot's walk,
// encoding), so a slow call explains itself in --trace and the debug log.
// Without a Recorder in the context, Start records nothing and costs one
// context lookup.
package spans

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Recorder sums the phases of one call. Phases may nest or overlap (the
// browser's time is part of a settle's), so they need not add up to the
// call's time.
type Recorder struct {
	start  time.Time
	mu     sync.Mutex
	phases []Phase
	clocks []clock
}

// Phase is one named phase's time in a call, and how often it ran.
type Phase struct {
	Name string
	D    time.Duration
	N    int
}

// clock is a running total some other part keeps (the browser connection's
// time with a request in flight), reported as its growth during the call.
type clock struct {
	name string
	read func() time.Duration
	base time.Duration
}

type key struct{}

// on is set once any Recorder was made: parts that keep a clock for Recorders
// (cdpconn's time in flight) keep it only from then on.
var on atomic.Bool

// On reports whether calls are being recorded at all.
func On() bool { return on.Load() }

// New starts recording a call.
func New() *Recorder {
	on.Store(true)
	return &Recorder{start: time.Now()}
}

// With returns ctx carrying r.
func With(ctx context.Context, r *Recorder) context.Context {
	return context.WithValue(ctx, key{}, r)
}

// From returns the Recorder ctx carries, or nil.
func From(ctx context.Context) *Recorder {
	r, _ := ctx.Value(key{}).(*Recorder)
	return r
}

func noop() {}

// Start times a phase of the call ctx records, until the function it returns
// is called: defer spans.Start(ctx, "settle")().
func Start(ctx context.Context, name string) (end func()) {
	r := From(ctx)
	if r == nil {
		return noop
	}
	t := time.Now()
	return func() { r.Add(name, time.Since(t)) }
}

// Add adds d to the phase name.
func (r *Recorder) Add(name string, d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := range r.phases {
		if r.phases[i].Name == name {
			r.phases[i].D += d
			r.phases[i].N++
			return
		}
	}
	r.phases = append(r.phases, Phase{Name: name, D: d, N: 1})
}

// Clock reports, as phase name, how much the running total read grows from now
// until the call ends. A name already registered is kept as it was.
func Clock(ctx context.Context, name string, read func() time.Duration) {
	r := From(ctx)
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.clocks {
		if c.name == name {
			return
		}
	}
	r.clocks = append(r.clocks, clock{name: name, read: read, base: read()})
}

// Phases returns the call's phases in the order they first ran, the clocks'
// after them.
func (r *Recorder) Phases() []Phase {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := append([]Phase(nil), r.phases...)
	for _, c := range r.clocks {
		out = append(out, Phase{Name: c.name, D: c.read() - c.base, N: 1})
	}
	return out
}

// Elapsed is the time since the call began.
func (r *Recorder) Elapsed() time.Duration { return time.Since(r.start) }

// Ms returns the phases as milliseconds by name (0.1 ms resolution), for a
// trace line.
func (r *Recorder) Ms() map[string]float64 {
	m := map[string]float64{}
	for _, p := range r.Phases() {
		m[p.Name] = float64(p.D.Round(100*time.Microsecond)) / float64(time.Millisecond)
	}
	return m
}

// String lists the phases for a log line: "browser 41.2ms, settle 30.0ms ×2".
func (r *Recorder) String() string {
	var b strings.Builder
	for i, p := range r.Phases() {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %.1fms", p.Name, float64(p.D)/float64(time.Millisecond))
		if p.N > 1 {
			fmt.Fprintf(&b, " ×%d", p.N)
		}
	}
	return b.String()
}
