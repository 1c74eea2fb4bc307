//go:build unix

package cdpclient

import (
	"context"
	"syscall"
	"testing"
)

// Shutdown reports whether a browser with a kept profile exited by itself
// (its cookies on disk) or had to be killed: the profile's owner warns on the
// latter that its last state may not be saved. A browser given no time for
// Browser.close is still asked with SIGTERM, and exits by itself; one that is
// stopped (as a browser too slow to exit) is killed once the wait for it ends.
func TestShutdownReportsWhetherTheBrowserExitedByItself(t *testing.T) {
	launch := func() *Browser {
		b, err := Connect(testContext(t), Options{Launch: LaunchOptions{Headless: true, UserDataDir: t.TempDir()}})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	b := launch()
	if !b.Shutdown(testContext(t)) {
		t.Error("a browser asked to close, with time to do it, was reported killed")
	}
	if b.Alive() {
		t.Error("the browser is still connected after Shutdown")
	}
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	b = launch()
	if !b.Shutdown(ended) {
		t.Error("a browser given no time for Browser.close, which exits on SIGTERM, was reported killed")
	}
	b = launch()
	if err := syscall.Kill(b.PID(), syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	if b.Shutdown(ended) {
		t.Error("a stopped browser, which had to be killed, was reported to have exited by itself")
	}
	if b.Alive() {
		t.Error("the browser is still connected after Shutdown")
	}
}
