package postgres

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
	"github.com/jackc/pgx/v5"
)

// channel is the NOTIFY channel the processes of a fleet tell each other on.
const channel = "cdpmcp_jobs"

// note is an Event as sent through NOTIFY.
type note struct {
	ID        string `json:"id,omitempty"`
	Claimable bool   `json:"c,omitempty"`
	State     string `json:"s,omitempty"`
	Worker    string `json:"w,omitempty"`
}

// notify sends events to every listening process when tx commits.
func notify(ctx context.Context, tx pgx.Tx, events []jobstore.Event) error {
	for _, e := range events {
		b, _ := json.Marshal(note{ID: e.ID, Claimable: e.Claimable, State: string(e.State), Worker: e.Worker})
		if _, err := tx.Exec(ctx, `SELECT pg_notify($1, $2)`, channel, string(b)); err != nil {
			return err
		}
	}
	return nil
}

// listen receives the fleet's notifications on a connection of its own and
// publishes them to this process's Watch readers, reconnecting when the
// connection drops (readers get a claimable event then: they may have missed
// some). ready gets the first connection's outcome.
func (s *Store) listen(ctx context.Context, ready chan<- error) {
	defer close(s.done)
	first := true
	for wait := 100 * time.Millisecond; ; wait = min(wait*2, 5*time.Second) {
		conn, err := pgx.Connect(ctx, s.conn)
		if err == nil {
			_, err = conn.Exec(ctx, "LISTEN "+channel)
		}
		if first {
			ready <- err
			first = false
			if err != nil {
				if conn != nil {
					conn.Close(context.Background())
				}
				return
			}
		}
		if err == nil {
			wait = 100 * time.Millisecond
			s.Publish(jobstore.Event{Claimable: true})
			err = s.receive(ctx, conn)
			conn.Close(context.Background())
		}
		if ctx.Err() != nil {
			return
		}
		slog.Warn("job database: listening for changes failed; reconnecting", "err", err, "in", wait)
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}

func (s *Store) receive(ctx context.Context, conn *pgx.Conn) error {
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		var m note
		if err := json.Unmarshal([]byte(n.Payload), &m); err != nil {
			continue
		}
		s.Publish(jobstore.Event{ID: m.ID, Claimable: m.Claimable, State: jobstore.State(m.State), Worker: m.Worker})
	}
}

func replaceAll(s, old, repl string) string { return strings.ReplaceAll(s, old, repl) }
