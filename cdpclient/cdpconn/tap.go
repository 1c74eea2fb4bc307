package cdpconn

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
	"time"

	"github.com/mafredri/cdp/rpcc"
)

// Event is one event of a session, with the time it was read.
type Event struct {
	Method string
	Params json.RawMessage
	Time   time.Time
}

// Tap calls fn for every event on conn whose method is one of methods, in
// the order the browser sent them, from a goroutine of its own, until stop is
// called or the session ends. stop blocks until fn has returned for the last
// time.
func Tap(conn *rpcc.Conn, methods []string, fn func(Event)) (stop func(), err error) {
	ctx, cancel := context.WithCancel(context.Background())
	streams := make([]rpcc.Stream, 0, len(methods))
	closeAll := func() {
		for _, s := range streams {
			_ = s.Close()
		}
	}
	for _, m := range methods {
		s, err := rpcc.NewStream(ctx, m, conn)
		if err != nil {
			cancel()
			closeAll()
			return nil, fmt.Errorf("listen for %s: %w", m, err)
		}
		streams = append(streams, s)
	}
	if len(streams) > 1 {
		if err := rpcc.Sync(streams...); err != nil {
			cancel()
			closeAll()
			return nil, fmt.Errorf("order the session's events: %w", err)
		}
	}
	cases := make([]reflect.SelectCase, len(streams)+1)
	cases[0] = reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(ctx.Done())}
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			// A stream's ready channel is replaced after each message.
			for i, s := range streams {
				cases[i+1] = reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(s.Ready())}
			}
			i, _, _ := reflect.Select(cases)
			if i == 0 {
				return
			}
			var raw json.RawMessage
			if err := streams[i-1].RecvMsg(&raw); err != nil {
				return // the session is gone
			}
			fn(Event{Method: methods[i-1], Params: raw, Time: time.Now()})
		}
	})
	var once sync.Once
	return func() {
		once.Do(func() {
			cancel()
			closeAll()
			wg.Wait()
		})
	}, nil
}
