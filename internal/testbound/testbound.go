// Package testbound is the one place tests take the bound that ends a wait: a
// generous base duration, scaled for slow or shared machines by the
// CDPMCP_TEST_SCALE environment variable (and doubled under the race
// detector), and helpers that wait for a condition within it. Tests assert
// behaviour, never speed: a bound only stops a test that would otherwise hang,
// so it is far beyond what the wait needs on an idle machine.
package testbound

import (
	"context"
	"errors"
	"os"
	"strconv"
	"testing"
	"time"
)

// EnvScale names the environment variable that multiplies every bound: a
// positive number such as 2 or 0.5 (unset, empty or invalid means 1).
const EnvScale = "CDPMCP_TEST_SCALE"

// Base is the unscaled bound of one wait: a minute, enough for a page load,
// a browser launch or a job on a machine whose cores are busy with others.
const Base = time.Minute

// Factor is what bounds are multiplied by: CDPMCP_TEST_SCALE, times 2 when
// the race detector is on.
func Factor() float64 {
	f := 1.0
	if v, err := strconv.ParseFloat(os.Getenv(EnvScale), 64); err == nil && v > 0 {
		f = v
	}
	if raceEnabled {
		f *= 2
	}
	return f
}

// Scale returns d multiplied by Factor. Use it for a bound a test chooses
// itself (a timeout it configures must stay far beyond what it waits for).
func Scale(d time.Duration) time.Duration { return time.Duration(float64(d) * Factor()) }

// Bound is the scaled bound of one wait: Scale(Base).
func Bound() time.Duration { return Scale(Base) }

// Context returns a context that ends after Bound, or when the test ends.
func Context(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), Bound())
	t.Cleanup(cancel)
	return ctx
}

// Until calls cond at once and then every few milliseconds until it holds,
// and fails the test (t.Fatalf, so call it from the test's goroutine) when it
// has not held within Bound. what names the condition in the failure.
func Until(t testing.TB, what string, cond func() bool) {
	t.Helper()
	UntilNil(t, what, func() error {
		if cond() {
			return nil
		}
		return errNotYet
	})
}

// UntilNil is Until for a check that says why it does not hold yet: it calls
// check until it returns nil, and the failure quotes check's last error.
func UntilNil(t testing.TB, what string, check func() error) {
	t.Helper()
	if err := Wait(Context(t), check); err != nil {
		t.Fatalf("%s: not within %s: %v", what, Bound(), err)
	}
}

// Wait calls check at once and then with a growing pause (10 ms up to
// 250 ms) until it returns nil, and returns check's last error when ctx ends
// first. It is for goroutines other than the test's, and for benchmarks.
func Wait(ctx context.Context, check func() error) error {
	pause := 10 * time.Millisecond
	for {
		err := check()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(pause):
		}
		pause = min(pause*3/2, 250*time.Millisecond)
	}
}

var errNotYet = errors.New("it does not hold yet")
