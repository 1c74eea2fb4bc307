package cdpclient

import (
	"context"
	"time"
)

// poll calls check at once and then every interval until check reports done or
// an error, or ctx ends. The duration is a deadline taken from ctx; the last
// check's error (if any) is returned in preference to ctx's.
func poll(ctx context.Context, interval time.Duration, check func() (done bool, err error)) error {
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
