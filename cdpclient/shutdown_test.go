package cdpclient

import (
	"context"
	"testing"
)

// Shutdown reports whether a browser with a kept profile exited by itself
// (its cookies on disk) or had to be ended: the profile's owner warns on the
// latter that its last state may not be saved.
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
	b = launch()
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	if b.Shutdown(ended) {
		t.Error("a browser given no time to close was reported to have exited by itself")
	}
	if b.Alive() {
		t.Error("the browser is still connected after Shutdown")
	}
}
