package poll

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestUntil(t *testing.T) {
	calls := 0
	err := Until(context.Background(), time.Millisecond, func() (bool, error) {
		calls++
		return calls == 3, nil
	})
	if err != nil || calls != 3 {
		t.Errorf("Until = %v after %d checks; want nil after 3", err, calls)
	}

	boom := errors.New("boom")
	if err := Until(context.Background(), time.Millisecond, func() (bool, error) { return false, boom }); err != boom {
		t.Errorf("a failing check: Until = %v, want its error", err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := Until(ctx, time.Millisecond, func() (bool, error) { return false, nil }); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("never done: Until = %v, want the context's deadline", err)
	}
}
