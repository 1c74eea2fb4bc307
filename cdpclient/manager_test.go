package cdpclient

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/poll"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// A browser slow to start (a loaded machine) holds back only the callers
// that choose to wait for it: one whose context ends stops waiting with a
// clear error while the launch goes on for the first, and Close ends the
// launch under way at once rather than after its bound.
func TestManagerWaitsForALaunchAsLongAsTheCallerDoes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	never := filepath.Join(dir, "slow-browser")
	// Alive, and never reports its DevTools port.
	if err := os.WriteFile(never, []byte("#!/bin/sh\nexec sleep 600\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	m := NewManager(Options{Launch: LaunchOptions{Path: never, Headless: true, UserDataDir: filepath.Join(dir, "profile")}})
	first := make(chan error, 1)
	go func() {
		_, err := m.Browser(context.Background())
		first <- err
	}()
	ctx := testContext(t)
	if err := poll.Until(ctx, 10*time.Millisecond, func() (bool, error) { return len(m.connecting) == 1, nil }); err != nil {
		t.Fatal("the first caller never started the launch")
	}
	wctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if _, err := m.Browser(wctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a caller whose context ended while another launched: %v, want its deadline", err)
	}
	select {
	case err := <-first:
		t.Fatalf("the launch ended before Close: %v", err)
	default:
	}
	closed := make(chan struct{})
	go func() { m.Close(); close(closed) }()
	select {
	case err := <-first:
		if !errors.Is(err, ErrBrowserClosed) {
			t.Errorf("the launch Close ended: %v, want ErrBrowserClosed", err)
		}
	case <-time.After(testbound.Bound()):
		t.Fatal("Close did not end the launch under way")
	}
	<-closed
	if _, err := m.Browser(ctx); !errors.Is(err, ErrBrowserClosed) {
		t.Errorf("after Close: %v", err)
	}
}
