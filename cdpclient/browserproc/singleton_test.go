package browserproc

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// A browser that was killed leaves nothing in TMPDIR once it is closed: not
// its profile, not the directory of its singleton socket (Chromium removes
// that one only when it exits on its own). The browser is the full Chromium:
// the headless shell keeps no singleton.
func TestKilledBrowserLeavesNoTempDir(t *testing.T) {
	t.Parallel()
	p, err := Launch(testbound.Context(t), Options{Path: fullChromium(t), Headless: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var socket string
	testbound.Until(t, "the profile's SingletonSocket link", func() bool {
		socket, err = os.Readlink(filepath.Join(p.profile, "SingletonSocket"))
		return err == nil
	})
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	<-p.exited
	p.Close()
	for _, dir := range []string{p.profile, filepath.Dir(socket)} {
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%s is still there after the killed browser was closed (%v)", dir, err)
		}
	}
}

// The same for a browser on a profile of the caller's (as jobs run them):
// the profile stays, the singleton directory goes.
func TestKilledBrowserOnOwnProfileLeavesNoTempDir(t *testing.T) {
	t.Parallel()
	profile := t.TempDir()
	p, err := Launch(testbound.Context(t), Options{Path: fullChromium(t), Headless: true, UserDataDir: profile}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var socket string
	testbound.Until(t, "the profile's SingletonSocket link", func() bool {
		socket, err = os.Readlink(filepath.Join(profile, "SingletonSocket"))
		return err == nil
	})
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	<-p.exited
	p.Close()
	if _, err := os.Stat(filepath.Dir(socket)); !os.IsNotExist(err) {
		t.Errorf("%s is still there after the killed browser was closed (%v)", filepath.Dir(socket), err)
	}
	if _, err := os.Stat(profile); err != nil {
		t.Errorf("the caller's profile is gone: %v", err)
	}
}

// fullChromium is the browser FindBrowser finds, a full Chromium.
func fullChromium(t *testing.T) string {
	t.Helper()
	exe, err := FindBrowser("")
	if err != nil {
		t.Fatal(err)
	}
	return exe
}
