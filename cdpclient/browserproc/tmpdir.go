package browserproc

import (
	"os"
	"path/filepath"
	"strings"
)

// socketPathMax is the longest path a unix socket may have on Linux (108
// bytes with the terminating NUL).
const socketPathMax = 107

// singletonSuffix is what Chromium adds to TMPDIR for its singleton socket:
// a directory org.chromium.Chromium.XXXXXX holding SingletonSocket.
const singletonSuffix = "/org.chromium.Chromium.XXXXXX/SingletonSocket"

// browserEnv is the environment a launched browser runs in: ours, but with a
// TMPDIR short enough for the socket Chromium makes there. Under a long
// TMPDIR (a test's, a deep home directory) Chromium would die at start with
// "Socket path too long"; the socket's directory is removed with the profile
// (RemoveSingletonDir), wherever it is.
func browserEnv() []string {
	env := os.Environ()
	if len(os.TempDir())+len(singletonSuffix) <= socketPathMax {
		return env
	}
	short := shortTempDir()
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, "TMPDIR=") {
			out = append(out, kv)
		}
	}
	return append(out, "TMPDIR="+short)
}

// shortTempDir is a temporary directory whose path leaves room for the
// singleton socket: /tmp, or /dev/shm where /tmp is not there.
func shortTempDir() string {
	for _, dir := range []string{"/tmp", "/dev/shm", "/var/tmp"} {
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			return dir
		}
	}
	return filepath.Clean(os.TempDir()) // nothing better: Chromium will say why it cannot start
}
