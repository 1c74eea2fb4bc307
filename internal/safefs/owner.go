// Package safefs makes the folders and files cdpmcp writes so that no other
// user of the machine can turn them against their owner: private folders,
// refused when they exist but are someone else's, a symbolic link or open to
// others' writes, and files created anew, never through a link and never over
// a file cdpmcp did not make.
package safefs

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

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
