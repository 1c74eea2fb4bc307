//go:build unix

package agentloop

import (
	"os"
	"syscall"
)

// tryLock takes an exclusive lock on f without waiting; closing f, or the
// end of the process however it ends, drops it.
func tryLock(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}
