package cdpclient

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// A browser that was killed leaves nothing in TMPDIR once it is closed: not
// its profile, not the directory of its singleton socket (Chromium removes
// that one only when it exits on its own).
func TestKilledBrowserLeavesNoTempDir(t *testing.T) {
	t.Parallel()
	p, err := launch(testContext(t), LaunchOptions{Headless: true}, nil)
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
	p.close()
	for _, dir := range []string{p.profile, filepath.Dir(socket)} {
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%s is still there after the killed browser was closed (%v)", dir, err)
		}
	}
}
