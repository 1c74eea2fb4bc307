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

	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/cdpmcp/cdpmcp/packaging"
)

// The tests build this machine's binary as the release does, static, with
// its version stamp (main.version, -s -w), into a temporary dist folder laid
// out as GoReleaser's (metadata.json, artifacts.json), and make the packages
// from it as a release does. GoReleaser itself and the six-platform matrix are
// `make release-snapshot`'s: compiling GoReleaser here would double the
// suite's time on two cores.
var (
	root     string // the project
	dist     *packaging.Dist
	site     *fixtures.Server
	npmTools string // where the mcpb CLI is installed: bin/npm-tools, as make's
	tmp      string // the tests' own files: the dist folder, the npm packages
)

func TestMain(m *testing.M) { os.Exit(run(m)) }

func run(m *testing.M) int {
	var err error
	if root, err = filepath.Abs(".."); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	npmTools = filepath.Join(root, "bin", "npm-tools")
	tmp, err = os.MkdirTemp("", "cdpmcp-release-")
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

// buildHost builds this machine's binary into tmp/dist with the release's
// flags and writes the metadata GoReleaser would.
func buildHost(tmp string) (*packaging.Dist, error) {
	license, err := os.ReadFile(filepath.Join(root, "LICENSE"))
	if err != nil {
		return nil, err
	}
	distDir := filepath.Join(tmp, "dist")
	target := runtime.GOOS + "_" + runtime.GOARCH
	exe := filepath.Join(distDir, "cdpmcp_"+target, "cdpmcp")
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	commit := "none"
	if out, err := exec.Command("git", "-C", root, "rev-parse", "--short", "HEAD").Output(); err == nil {
		commit = strings.TrimSpace(string(out))
	}
	version := "0.0.1-snapshot-" + commit
	// A bound on a cold build cache on two busy cores; warm, it takes seconds.
	ctx, cancel := context.WithTimeout(context.Background(), testbound.Scale(10*time.Minute))
	defer cancel()
	// Static, as the release (CGO_ENABLED=0: only the few packages with cgo
	// are compiled again). The release's -trimpath would compile every
	// package again (minutes on two cores): it is release-snapshot's.
	cmd := exec.CommandContext(ctx, "go", "build", "-ldflags", "-s -w -X main.version="+version, "-o", exe, "./cmd/cdpmcp")
	cmd.Dir, cmd.Env = root, append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build: %w\n%s", err, out)
	}
	// The project's licence, beside dist as in the project: every package carries it.
	if err := os.WriteFile(filepath.Join(tmp, "LICENSE"), license, 0o644); err != nil {
		return nil, err
	}
	meta := fmt.Sprintf(`{"project_name":"cdpmcp","version":%q,"commit":%q}`, version, commit)
	artifacts := fmt.Sprintf(`[{"type":"Binary","path":%q,"goos":%q,"goarch":%q}]`, exe, runtime.GOOS, runtime.GOARCH)
	for name, data := range map[string]string{"metadata.json": meta, "artifacts.json": artifacts} {
		if err := os.WriteFile(filepath.Join(distDir, name), []byte(data), 0o644); err != nil {
			return nil, err
		}
	}
	return packaging.ReadDist(distDir)
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

// TestGoReleaserConfigBuildsWhatPackagingReads checks that .goreleaser.yaml
// builds what the packages are made from, with the flags buildHost uses; its
// full check is `make release-snapshot`'s.
func TestGoReleaserConfigBuildsWhatPackagingReads(t *testing.T) {
	cfg, err := os.ReadFile(filepath.Join(root, ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`(?m)^version: 2$`, `(?m)^\s+main: ./cmd/cdpmcp$`, `(?m)^\s+binary: cdpmcp$`, `CGO_ENABLED=0`,
		`(?m)^\s+flags: \[-trimpath\]$`, `-X main.version=\{\{ \.Version \}\}`,
		`(?m)^\s+goos: \[linux, darwin, windows\]$`, `(?m)^\s+goarch: \[amd64, arm64\]$`,
		`(?m)^\s+- LICENSE$`, // the archives carry the licence
	} {
		if !regexp.MustCompile(want).Match(cfg) {
			t.Errorf(".goreleaser.yaml lacks %s", want)
		}
	}
	if regexp.MustCompile(`(?m)^dist:`).Match(cfg) {
		t.Error(".goreleaser.yaml sets dist: make packages reads dist/")
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
