//go:build linux

// Package pgtest starts a throwaway PostgreSQL server for tests and
// benchmarks: initdb into a fresh temporary directory, run as an unprivileged
// user when the tests run as root, reachable only through a Unix socket in
// that directory. Stop ends it and removes the directory; a server whose test
// binary died is ended by the kernel (parent-death signal) and its directory
// is removed by the next Start.
package pgtest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// Server is a running PostgreSQL server of its own.
type Server struct {
	// Dir is the server's directory: data in Dir/data, socket in Dir.
	Dir  string
	bin  string
	cred *syscall.Credential
	cmd  *exec.Cmd
	// exited is closed once cmd has exited (nil before Up).
	exited chan struct{}
	lock   *os.File
	log    *bytes.Buffer
	dbs    atomic.Int64
}

// superuser is the role initdb creates.
const superuser = "cdpmcp"

// Bin returns the directory holding initdb and postgres: the one on PATH,
// else Debian's newest /usr/lib/postgresql/N/bin.
func Bin() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		return filepath.Dir(p), nil
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	return "", errors.New("PostgreSQL is not installed: no initdb on PATH or in /usr/lib/postgresql/*/bin (run make deps, or apt-get install postgresql)")
}

func version(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

// Start creates and starts a server. Call Stop when done.
func Start() (*Server, error) {
	bin, err := Bin()
	if err != nil {
		return nil, err
	}
	base := baseDir()
	removeStale(base)
	dir, err := os.MkdirTemp(base, "cdpmcp-pgtest-")
	if err != nil {
		return nil, err
	}
	s := &Server{Dir: dir, bin: bin, log: &bytes.Buffer{}}
	// The lock says the directory is in use: removeStale leaves it alone.
	if s.lock, err = os.Create(filepath.Join(dir, "lock")); err == nil {
		err = syscall.Flock(int(s.lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	}
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("pgtest: lock %s: %w", dir, err)
	}
	if err := s.asUser(); err != nil {
		s.Stop()
		return nil, err
	}
	initdb := s.command("initdb", "-D", filepath.Join(dir, "data"), "-U", superuser, "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C")
	if out, err := initdb.CombinedOutput(); err != nil {
		s.Stop()
		return nil, fmt.Errorf("pgtest: initdb: %v\n%s", err, out)
	}
	if err := s.Up(); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

// Up starts the server on its data, as Start did, and returns once it takes
// connections: after Down, the same databases are back.
func (s *Server) Up() error {
	s.cmd = s.command("postgres", "-D", filepath.Join(s.Dir, "data"), "-k", s.Dir, "-c", "listen_addresses=",
		"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
		"-c", "max_connections=300", "-c", "shared_buffers=32MB")
	s.cmd.Stdout, s.cmd.Stderr = s.log, s.log
	s.cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL // the test binary died: so does the server
	if err := s.cmd.Start(); err != nil {
		return fmt.Errorf("pgtest: start postgres: %w", err)
	}
	exited := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(exited) }()
	s.exited = exited
	deadline := time.Now().Add(60 * time.Second)
	for {
		if s.command("pg_isready", "-q", "-h", s.Dir, "-U", superuser).Run() == nil {
			return nil
		}
		select {
		case <-exited:
			return fmt.Errorf("pgtest: postgres exited at start:\n%s", s.log.String())
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("pgtest: postgres did not start within 60 s:\n%s", s.log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Down stops the server as an administrator's fast shutdown does (pg_ctl -m
// fast stop): open sessions end with "terminating connection due to
// administrator command" (SQLSTATE 57P01), new ones are refused, and the data
// stays for Up. It returns once the server has exited.
func (s *Server) Down() error {
	if s.cmd == nil || s.cmd.Process == nil {
		return errors.New("pgtest: the server is not running")
	}
	select {
	case <-s.exited:
		return errors.New("pgtest: the server is not running")
	default:
	}
	if err := s.cmd.Process.Signal(syscall.SIGINT); err != nil {
		return fmt.Errorf("pgtest: stop postgres: %w", err)
	}
	select {
	case <-s.exited:
		return nil
	case <-time.After(30 * time.Second):
		return errors.New("pgtest: postgres did not stop within 30 s of a fast shutdown")
	}
}

// asUser makes the server run as nobody when this process is root
// (PostgreSQL refuses to run as root), handing it the directory.
func (s *Server) asUser() error {
	if os.Geteuid() != 0 {
		return nil
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		return fmt.Errorf("pgtest: running as root needs the user nobody: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	s.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	return os.Chown(s.Dir, uid, gid)
}

func (s *Server) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(s.bin, name), args...)
	cmd.Dir = s.Dir
	cmd.Env = append(os.Environ(), "LC_ALL=C", "PGHOST="+s.Dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Credential: s.cred}
	return cmd
}

// URL returns a connection URL for database db (a libpq URL with the socket
// directory as host).
func (s *Server) URL(db string) string {
	return fmt.Sprintf("postgres:///%s?host=%s&user=%s&sslmode=disable", db, s.Dir, superuser)
}

// NewDatabase creates an empty database of its own and returns its URL.
func (s *Server) NewDatabase(prefix string) (string, error) {
	name := fmt.Sprintf("%s_%d", strings.ToLower(prefix), s.dbs.Add(1))
	if out, err := s.command("createdb", "-h", s.Dir, "-U", superuser, name).CombinedOutput(); err != nil {
		return "", fmt.Errorf("pgtest: createdb %s: %v\n%s", name, err, out)
	}
	return s.URL(name), nil
}

// Stop ends the server at once (its data is thrown away) and removes its
// directory. It is safe to call more than once.
func (s *Server) Stop() {
	if s.exited != nil {
		select {
		case <-s.exited:
		default:
			// SIGQUIT is PostgreSQL's immediate shutdown; its backends follow.
			_ = s.cmd.Process.Signal(syscall.SIGQUIT)
			select {
			case <-s.exited:
			case <-time.After(10 * time.Second):
				_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
				<-s.exited
			}
		}
	}
	if s.lock != nil {
		s.lock.Close()
		s.lock = nil
	}
	if s.Dir != "" {
		os.RemoveAll(s.Dir)
	}
}

// baseDir is where servers' directories go: the temporary directory, unless
// the server runs as nobody and cannot reach into it (a private TMPDIR),
// then /tmp.
func baseDir() string {
	tmp := os.TempDir()
	if os.Geteuid() != 0 {
		return tmp
	}
	for d := tmp; ; d = filepath.Dir(d) {
		if fi, err := os.Stat(d); err != nil || fi.Mode().Perm()&0o001 == 0 {
			return "/tmp"
		}
		if d == filepath.Dir(d) {
			return tmp
		}
	}
}

// removeStale removes the directories of servers whose test binary died
// (nothing holds their lock). Their postgres died with the binary.
func removeStale(base string) {
	dirs, _ := filepath.Glob(filepath.Join(base, "cdpmcp-pgtest-*"))
	for _, d := range dirs {
		f, err := os.Open(filepath.Join(d, "lock"))
		if err != nil {
			continue // being created: not ours to judge
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			if b, err := os.ReadFile(filepath.Join(d, "data", "postmaster.pid")); err != nil || !alive(b) {
				os.RemoveAll(d)
			}
		}
		f.Close()
	}
}

// alive reports whether the postmaster a postmaster.pid names still runs.
func alive(pidFile []byte) bool {
	line, _, _ := strings.Cut(string(pidFile), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	return err == nil && syscall.Kill(pid, 0) == nil
}

// Own starts a server of t's own (one t may stop and start: an outage for
// its test alone), stopped when t ends, and returns it with the URL of a
// new database on it named after prefix.
func Own(t testing.TB, prefix string) (*Server, string) {
	t.Helper()
	srv, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	url, err := srv.NewDatabase(prefix)
	if err != nil {
		t.Fatal(err)
	}
	return srv, url
}
