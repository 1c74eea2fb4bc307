package packaging_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/procgroup"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/cdpmcp/cdpmcp/packaging"
)

// The tests build this machine's release binary with GoReleaser, from the
// project's .goreleaser.yaml (the version the Makefile pins), into a
// temporary dist folder, and make the packages from it as a release does.
// The six-platform matrix is `make release-snapshot`'s: one build is enough to
// test what the packages do with it.
var (
	root     string // the project
	dist     *packaging.Dist
	site     *fixtures.Server
	npmTools string // where the mcpb CLI is installed: bin/npm-tools, as make's
)

func TestMain(m *testing.M) { os.Exit(run(m)) }

func run(m *testing.M) int {
	var err error
	if root, err = filepath.Abs(".."); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	npmTools = filepath.Join(root, "bin", "npm-tools")
	tmp, err := os.MkdirTemp("", "cdpmcp-release-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(tmp)
	if dist, err = buildHost(tmp); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if site, err = fixtures.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer site.Close()
	return m.Run()
}

// buildHost runs `goreleaser build --snapshot --single-target` with the
// project's config, its dist folder moved into tmp.
func buildHost(tmp string) (*packaging.Dist, error) {
	cfg, err := os.ReadFile(filepath.Join(root, ".goreleaser.yaml"))
	if err != nil {
		return nil, err
	}
	if regexp.MustCompile(`(?m)^dist:`).Match(cfg) {
		return nil, fmt.Errorf(".goreleaser.yaml sets dist: the tests need to choose it")
	}
	distDir := filepath.Join(tmp, "dist")
	cfgPath := filepath.Join(tmp, "goreleaser.yaml")
	if err := os.WriteFile(cfgPath, fmt.Appendf(cfg, "\ndist: %s\n", distDir), 0o644); err != nil {
		return nil, err
	}
	// A bound on a cold build cache on two busy cores (it then compiles every
	// package for the release flags); with a warm one it takes seconds.
	ctx, cancel := context.WithTimeout(context.Background(), testbound.Scale(14*time.Minute))
	defer cancel()
	if out, err := goreleaser(ctx, "build", "--snapshot", "--single-target", "--clean", "--config", cfgPath); err != nil {
		return nil, fmt.Errorf("goreleaser build: %w\n%s", err, out)
	}
	return packaging.ReadDist(distDir)
}

// goreleaser runs GoReleaser, the version the Makefile pins, in the project.
func goreleaser(ctx context.Context, args ...string) ([]byte, error) {
	mk, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		return nil, err
	}
	v := regexp.MustCompile(`(?m)^GORELEASER_VERSION := (\S+)$`).FindSubmatch(mk)
	if v == nil {
		return nil, fmt.Errorf("the Makefile has no GORELEASER_VERSION := line")
	}
	cmd := exec.CommandContext(ctx, "go", append([]string{"run", "github.com/goreleaser/goreleaser/v2@" + string(v[1])}, args...)...)
	cmd.Dir = root
	// go run, GoReleaser and its go build all end at the deadline.
	procgroup.Setup(cmd)
	cmd.Cancel = func() error {
		procgroup.Kill(cmd.Process.Pid)
		return nil
	}
	cmd.WaitDelay = 10 * time.Second
	return cmd.CombinedOutput()
}

// host is the binary the tests built.
func host(t *testing.T) packaging.Binary {
	t.Helper()
	b, err := dist.Host()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// testCtx is a context for one test's commands, bounded by d (scaled by
// testbound) and ended at its cleanup.
func testCtx(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testbound.Scale(d))
	t.Cleanup(cancel)
	return ctx
}

// command runs name in dir, with environment env (nil: this one's), and
// returns its stdout; a failure fails the test with the command's stderr.
func command(t *testing.T, ctx context.Context, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	t.Logf("$ %s %s\n%s%s", name, strings.Join(args, " "), out, stderr.String())
	if err != nil {
		t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	return string(out)
}

func TestGoReleaserConfigIsValid(t *testing.T) {
	out, err := goreleaser(testCtx(t, 3*time.Minute), "check")
	if err != nil {
		t.Fatalf("goreleaser check: %v\n%s", err, out)
	}
}

func TestReleaseBinaryPrintsItsVersion(t *testing.T) {
	// A snapshot's version is the next patch marked with the commit (GoReleaser
	// says "none" in a clone without a remote), a valid semver for npm; a
	// tag's is the tag without "v".
	if !regexp.MustCompile(`^\d+\.\d+\.\d+-snapshot-[0-9a-z]+$`).MatchString(dist.Version) {
		t.Errorf("snapshot version %q, want X.Y.Z-snapshot-<commit>", dist.Version)
	}
	if len(dist.Binaries) != 1 || dist.Binaries[0].OS != runtime.GOOS || dist.Binaries[0].Arch != runtime.GOARCH {
		t.Fatalf("binaries %+v, want this machine's only", dist.Binaries)
	}
	b := host(t)
	got := command(t, testCtx(t, time.Minute), t.TempDir(), nil, b.Path, "version")
	if want := "cdpmcp " + dist.Version + "\n"; got != want {
		t.Errorf("version printed %q, want %q", got, want)
	}
	if runtime.GOOS == "linux" {
		assertStatic(t, b.Path)
	}
}
