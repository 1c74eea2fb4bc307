//go:build unix

package safefs

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// PermissionBits says whether a file's permission bits say who may read and
// change it. They do on Unix.
const PermissionBits = true

// Owned says whether fi is owned by this process's user; an error says whose
// it is.
func Owned(fi fs.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil // no owners on this system
	}
	if uid := os.Geteuid(); int(st.Uid) != uid {
		return fmt.Errorf("it belongs to another user (uid %d, not %d)", st.Uid, uid)
	}
	return nil
}

// noFollow makes an open fail on a symbolic link.
const noFollow = syscall.O_NOFOLLOW
