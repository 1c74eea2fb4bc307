package browserproc

import (
	"os"
	"path/filepath"
	"strings"
)

// RemoveSingletonDir removes the directory Chromium made in TMPDIR for the
// singleton socket of the profile in dir (org.chromium.Chromium.XXXXXX, which
// the profile's SingletonSocket link points into). Chromium removes it when it
// exits on its own; a browser that was killed leaves it behind, one a launch,
// whoever's profile it ran on. Call it once the browser is gone and before
// its profile is removed: the link says where it is.
func RemoveSingletonDir(dir string) {
	target, err := os.Readlink(filepath.Join(dir, "SingletonSocket"))
	if err != nil {
		return
	}
	tmp := filepath.Dir(target)
	if !strings.HasPrefix(filepath.Base(tmp), "org.chromium.Chromium.") {
		return // not the layout we know: leave it alone
	}
	_ = os.RemoveAll(tmp)
}
