//go:build windows

package agentloop

import (
	"os"

	"golang.org/x/sys/windows"
)

// tryLock takes an exclusive lock on f without waiting; closing f, or the
// end of the process however it ends, drops it. The byte locked lies far past
// any record's end: Windows' locks are mandatory, and one on the record's
// bytes would refuse a reader of a run in progress.
func tryLock(f *os.File) error {
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0,
		&windows.Overlapped{Offset: 0xFFFFFFFE, OffsetHigh: 0x7FFFFFFF})
}
