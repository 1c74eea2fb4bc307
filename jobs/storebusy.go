package jobs

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
)

// storeBusy reports whether err says another connection held the store's
// file past its wait (SQLite's SQLITE_BUSY or SQLITE_LOCKED, "database is
// locked"): a `cdpmcp jobs` command or a sqlite3 shell in a long
// transaction, a backup. The write was rolled back: nothing changed.
func storeBusy(err error) bool {
	var coded interface{ Code() int }
	if errors.As(err, &coded) {
		if c := coded.Code() & 0xff; c == 5 || c == 6 { // SQLITE_BUSY, SQLITE_LOCKED
			return true
		}
	}
	return strings.Contains(err.Error(), "database is locked")
}

// busyError is storeGuard's answer to a store another process held: not a
// damaged file, and a call a client may simply make again.
func (g storeGuard) busyError(op string, err error) error {
	return &cdpclient.Error{Code: cdpclient.CodeInternal, Err: err,
		Msg: fmt.Sprintf("the job store %s is busy: another process held it for longer than 5 s, so it could not be %s; nothing changed (%v)",
			g.name, map[string]string{"read": "read", "write": "written"}[op], err),
		Hint: "call again: a submit retried with the same correlationId makes one job, never two; " +
			"if it stays busy, look for a process holding the file (fuser " + g.name + ")"}
}
