// Package statedir names the folder where cdpmcp keeps this user's state
// (the job queue, browser profiles, the agent's run records) unless told
// otherwise. It is the user's own: never a folder another user owns.
package statedir

import (
	"errors"
	"os"
	"os/user"
	"path/filepath"
	"strconv"

	"github.com/cdpmcp/cdpmcp/internal/safefs"
)

// Dir is $XDG_STATE_HOME/cdpmcp, else ~/.local/state/cdpmcp. A folder there
// that belongs to another user (sudo or su kept that user's HOME or
// XDG_STATE_HOME) is passed over: then the account's own home, else
// $TMPDIR/cdpmcp-state-UID. Dir only names it: its users create it private
// (safefs.Dir), and refuse it when another user owns it or others can write
// in it.
func Dir() string {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) && ours(d) {
		return filepath.Join(d, "cdpmcp")
	}
	var homes []string
	if home, err := os.UserHomeDir(); err == nil {
		homes = append(homes, home)
	}
	if u, err := user.Current(); err == nil && u.HomeDir != "" {
		homes = append(homes, u.HomeDir)
	}
	for _, home := range homes {
		if fi, err := os.Stat(home); err == nil && fi.IsDir() && safefs.Owned(fi) == nil {
			return filepath.Join(home, ".local", "state", "cdpmcp")
		}
	}
	if uid := os.Getuid(); uid >= 0 {
		return filepath.Join(os.TempDir(), "cdpmcp-state-"+strconv.Itoa(uid))
	}
	return filepath.Join(os.TempDir(), "cdpmcp-state")
}

// ours reports whether dir is missing (this user will create it) or is this
// user's.
func ours(dir string) bool {
	fi, err := os.Stat(dir)
	return errors.Is(err, os.ErrNotExist) || err == nil && safefs.Owned(fi) == nil
}
