package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// foreignDir is a folder of another user: made here and given away when this
// test runs as root; else /etc, which is root's.
func foreignDir(t *testing.T) string {
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

var (
	defaultDataDirRE = regexp.MustCompile(`--data-dir DIR .*\(default: "([^"]+)"\)`)
	defaultRunDirRE  = regexp.MustCompile(`--agent-run-dir DIR .*\(default ([^)]+)\)`)
)

// The default data dir is the user's own: a HOME or XDG_STATE_HOME that
// belongs to another user (sudo or su kept it) is passed over.
func TestDefaultDataDirIsTheUsersOwn(t *testing.T) {
	t.Parallel()
	tmp, foreign := shortTemp(t), foreignDir(t)
	for _, env := range [][]string{
		{"HOME=" + foreign, "XDG_STATE_HOME="},
		{"HOME=" + foreign, "XDG_STATE_HOME=" + foreign},
	} {
		r := runCLIEnv(t, tmp, env, "serve", "--help")
		for _, re := range []*regexp.Regexp{defaultDataDirRE, defaultRunDirRE} {
			m := re.FindStringSubmatch(r.stdout)
			if m == nil {
				t.Fatalf("%v serve --help names no default for %s:\n%s", env, re, r.stdout)
			}
			if dir := m[1]; strings.HasPrefix(dir, foreign+"/") {
				t.Errorf("%v: the default %s is in another user's folder %s", env, dir, foreign)
			}
		}
	}
}

// A plain stdio serve whose default data dir holds a job store but is not
// this user's (another's, or open to everyone's writes) takes none of its
// jobs: it says so loudly, and touches nothing there.
func TestServeLeavesAForeignDataDirAlone(t *testing.T) {
	t.Parallel()
	tmp := shortTemp(t)
	dir := filepath.Join(tmp, "cdpmcp") // the default: XDG_STATE_HOME is tmp
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "jobs.db"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	why := "other users can write in it"
	if os.Geteuid() == 0 {
		if err := os.Chown(dir, 4242, 4242); err != nil {
			t.Fatal(err)
		}
		why = "it belongs to another user (uid 4242"
	} else if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binPath, "serve", "--headless")
	cmd.Env = procEnv(tmp)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	testbound.Until(t, "a warning that the data dir's jobs are not taken up", func() bool {
		return strings.Contains(stderr.String(), "level=WARN msg=\"the job tools are off, and the jobs in the data dir are not taken up")
	})
	if log := stderr.String(); !strings.Contains(log, dir) || !strings.Contains(log, why) {
		t.Errorf("the warning does not name %s and why (%s):\n%s", dir, why, log)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("serve after stdin closed: %v\n%s", err, stderr.String())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("serve wrote into another's data dir: %v", entries)
	}
}
