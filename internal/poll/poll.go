// Package poll waits for a condition by asking again: the one loop every
// package that waits on a browser's state (an element, a download, a paused
// request's answer) uses.
package poll

import (
	"context"
	"time"
)

// Until calls check at once and then every interval until check reports done
// or an error, or ctx ends. The last check's error wins over ctx's.
func Until(ctx context.Context, interval time.Duration, check func() (done bool, err error)) error {
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		done, err := check()
		if done || err != nil {
			return err
		}
		t.Reset(interval)
	}
}
