package testbound

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestFactorReadsTheScale(t *testing.T) {
	race := 1.0
	if raceEnabled {
		race = 2
	}
	for _, tc := range []struct {
		env  string
		want float64
	}{{"", 1}, {"3", 3}, {"0.5", 0.5}, {"0", 1}, {"-2", 1}, {"fast", 1}} {
		t.Setenv(EnvScale, tc.env)
		if got := Factor(); got != tc.want*race {
			t.Errorf("%s=%q: factor %v, want %v", EnvScale, tc.env, got, tc.want*race)
		}
	}
	t.Setenv(EnvScale, "3")
	if got, want := Bound(), time.Duration(3*race)*Base; got != want {
		t.Errorf("bound %v, want %v", got, want)
	}
}

func TestUntilWaitsForTheCondition(t *testing.T) {
	calls := 0
	Until(t, "the fifth call", func() bool { calls++; return calls == 5 })
	if calls != 5 {
		t.Errorf("cond called %d times, want 5", calls)
	}
}

func TestWaitReturnsTheLastError(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	last := errors.New("still loading")
	if err := Wait(ctx, func() error { return last }); err != last {
		t.Errorf("Wait after its context ended: %v, want %v", err, last)
	}
}
