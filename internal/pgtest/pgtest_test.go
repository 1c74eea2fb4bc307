package pgtest_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/cdpmcp/cdpmcp/internal/pgtest"
)

// A server starts, takes a database and a query, and leaves nothing behind.
func TestStartStop(t *testing.T) {
	s, err := pgtest.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	url, err := s.NewDatabase("t")
	if err != nil {
		t.Fatal(err)
	}
	bin, _ := pgtest.Bin()
	out, err := exec.Command(filepath.Join(bin, "psql"), "-tAc", "select 40+2", url).CombinedOutput()
	if err != nil || string(out) != "42\n" {
		t.Fatalf("psql: %v %q", err, out)
	}
	s.Stop()
	if _, err := os.Stat(s.Dir); !os.IsNotExist(err) {
		t.Errorf("%s still there after Stop", s.Dir)
	}
}
