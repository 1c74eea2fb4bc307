//go:build unix

package jobs

import (
	"syscall"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// A profile's browser that exits by itself is not marked killed; one that
// has to be killed (here one that is stopped: a slow exit on a loaded machine
// outlasts any bound) is, so saving the profile for other workers says it may
// lack its last sign-ins.
func TestProfileBrowserKilledOnShutdownIsMarked(t *testing.T) {
	t.Parallel()
	start := func() *profileBrowser {
		dir := t.TempDir()
		pb := &profileBrowser{name: "t/p", dir: dir}
		pb.mgr = cdpclient.NewManager(cdpclient.Options{Launch: cdpclient.LaunchOptions{Headless: true, UserDataDir: dir}})
		if _, err := pb.mgr.Browser(testbound.Context(t)); err != nil {
			t.Fatal(err)
		}
		return pb
	}
	pb := start()
	if !pb.shutdownWithin(testbound.Bound()) || pb.killed {
		t.Error("a profile's browser with time to exit by itself was reported killed")
	}
	pb = start()
	if err := syscall.Kill(pb.mgr.Current().PID(), syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	if pb.shutdownWithin(0) || !pb.killed {
		t.Error("a profile's browser that had to be killed was not reported killed")
	}
}
