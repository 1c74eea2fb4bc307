package statedir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// someoneElses is a folder of another user: made and given away when the test
// runs as root; else /etc, which is root's.
func someoneElses(t *testing.T) string {
	t.Helper()
	if os.Geteuid() != 0 {
		return "/etc"
	}
	dir := filepath.Join(t.TempDir(), "someone-else")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(dir, 4242, 4242); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestDirIsTheUsersOwn(t *testing.T) {
	mine, theirs := t.TempDir(), someoneElses(t)
	for _, c := range []struct {
		name, xdg, home string
		want            func(string) bool
	}{
		{"XDG_STATE_HOME of this user's", mine, theirs, func(d string) bool { return d == filepath.Join(mine, "cdpmcp") }},
		{"XDG_STATE_HOME not made yet", filepath.Join(mine, "new"), theirs, func(d string) bool { return d == filepath.Join(mine, "new", "cdpmcp") }},
		{"HOME of this user's", "", mine, func(d string) bool { return d == filepath.Join(mine, ".local", "state", "cdpmcp") }},
		{"a relative XDG_STATE_HOME", "state", mine, func(d string) bool { return d == filepath.Join(mine, ".local", "state", "cdpmcp") }},
		{"another user's XDG_STATE_HOME and HOME", theirs, theirs, func(d string) bool { return !strings.HasPrefix(d, theirs+"/") }},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("XDG_STATE_HOME", c.xdg)
			t.Setenv("HOME", c.home)
			if d := Dir(); !c.want(d) {
				t.Errorf("XDG_STATE_HOME=%q HOME=%q: Dir() = %s", c.xdg, c.home, d)
			}
		})
	}
}
