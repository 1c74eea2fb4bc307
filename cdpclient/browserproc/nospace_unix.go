//go:build unix

package browserproc

import "syscall"

// noSpace reports whether the file system holding dir has less than a
// megabyte left for this user.
func noSpace(dir string) bool {
	var st syscall.Statfs_t
	if syscall.Statfs(dir, &st) != nil {
		return false
	}
	return st.Bavail*uint64(st.Bsize) < 1<<20
}
