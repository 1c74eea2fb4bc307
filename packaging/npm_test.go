package packaging_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/cdpmcp/cdpmcp/packaging"
)

// npmEnv makes npm work offline with a cache of its own: the tarballs are all
// it may install.
func npmEnv(t *testing.T) []string {
	return append(os.Environ(),
		"npm_config_cache="+t.TempDir(),
		"npm_config_offline=true",
		"npm_config_audit=false",
		"npm_config_fund=false",
		"npm_config_update_notifier=false",
	)
}

// npmProject is an empty npm project to install packages into.
func npmProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"try-cdpmcp","private":true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// packNPM makes the npm packages of the test build, once for the tests that
// install them (npm pack gzips the 30 MB binary, seconds of CPU); the tests
// only read them.
func packNPM(t *testing.T) (platform, main string) {
	t.Helper()
	tarballs, err := npmPackages()
	if err != nil {
		t.Fatal(err)
	}
	if len(tarballs) != 2 {
		t.Fatalf("npm packages %v, want this machine's and cdpmcp", tarballs)
	}
	return tarballs[0], tarballs[1]
}

var npmPackages = sync.OnceValues(func() ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), testbound.Scale(3*time.Minute))
	defer cancel()
	return packaging.NPM(ctx, dist, filepath.Join(tmp, "npm-packages"))
})

func TestNPMPackagesInstallAndServeOffline(t *testing.T) {
	ctx := testCtx(t, 5*time.Minute)
	platform, main := packNPM(t)
	b := host(t)
	pkgName, err := packaging.PlatformPackage(b)
	if err != nil {
		t.Fatal(err)
	}

	// The platform package holds the executable binary; the main package the
	// launcher and a package.json naming every platform package.
	files := tarFiles(t, platform)
	if mode, ok := files["package/bin/"+b.Exe()]; !ok || mode&0o111 == 0 {
		t.Errorf("%s: bin/%s missing or not executable (files %v)", filepath.Base(platform), b.Exe(), files)
	}
	files = tarFiles(t, main)
	for _, f := range []string{"package/package.json", "package/bin/cdpmcp.js", "package/README.md"} {
		if _, ok := files[f]; !ok {
			t.Errorf("%s lacks %s (files %v)", filepath.Base(main), f, files)
		}
	}
	// Both carry the licence, named in package.json and its text as LICENSE.
	license, err := os.ReadFile(filepath.Join(root, "LICENSE"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tgz := range []string{platform, main} {
		var p struct {
			License string `json:"license"`
		}
		if err := json.Unmarshal(tarFile(t, tgz, "package/package.json"), &p); err != nil || p.License != "MIT" {
			t.Errorf("%s: package.json license %q (%v), want MIT", filepath.Base(tgz), p.License, err)
		}
		if got := tarFile(t, tgz, "package/LICENSE"); !bytes.Equal(got, license) {
			t.Errorf("%s: LICENSE is not the project's", filepath.Base(tgz))
		}
	}
	var pkg struct {
		Version              string            `json:"version"`
		MCPName              string            `json:"mcpName"`
		Bin                  map[string]string `json:"bin"`
		Scripts              map[string]string `json:"scripts"`
		OptionalDependencies map[string]string `json:"optionalDependencies"`
	}
	if err := json.Unmarshal(tarFile(t, main, "package/package.json"), &pkg); err != nil {
		t.Fatal(err)
	}
	if pkg.Version != dist.Version || pkg.MCPName != packaging.MCPName || pkg.Bin["cdpmcp"] != "bin/cdpmcp.js" {
		t.Errorf("cdpmcp's package.json: %+v", pkg)
	}
	if len(pkg.Scripts) > 0 {
		t.Errorf("cdpmcp has install scripts %v; it must download nothing when installed", pkg.Scripts)
	}
	if len(pkg.OptionalDependencies) != 6 || pkg.OptionalDependencies[pkgName] != dist.Version {
		t.Errorf("optionalDependencies %v, want the six platform packages at %s", pkg.OptionalDependencies, dist.Version)
	}

	// Installed offline from the tarballs, it runs the platform's binary: npm
	// skips the other platforms' packages, optional and not to be had here.
	dir, env := npmProject(t), npmEnv(t)
	command(t, ctx, dir, env, "npm", "install", "--no-save", platform, main)
	if got, want := command(t, ctx, dir, env, "npx", "cdpmcp", "version"), "cdpmcp "+dist.Version+"\n"; got != want {
		t.Errorf("npx cdpmcp version printed %q, want %q", got, want)
	}

	// A real MCP client starts it the way a client config does, through npx
	// and the launcher, and uses it over stdio.
	s := startSession(t, ctx, dir, env, "npx", "cdpmcp", "serve", "--headless", "--no-jobs", "--log-level=debug")
	tools := s.tools(t, ctx)
	t.Logf("tools/list through npx: %d tools: %s", len(tools), strings.Join(tools, " "))
	for _, want := range []string{"navigate", "click", "type", "fill", "snapshot", "screenshot"} {
		if !slices.Contains(tools, want) {
			t.Errorf("tools/list through npx lacks %s: %v", want, tools)
		}
	}
	text, isErr := s.call(t, ctx, "navigate", map[string]any{"url": site.URL("/actions.html")})
	if isErr || !strings.Contains(text, "Actions") {
		t.Errorf("navigate through npx: %s", text)
	}
	s.close(t)
	if log := s.stderr.String(); !strings.Contains(log, `msg="shutting down" reason="stdin closed"`) {
		t.Errorf("the server did not see stdin close through the launcher; stderr:\n%s", log)
	}

	// A client that ends its server with SIGTERM ends it through the launcher:
	// the server closes its browser and the launcher exits with it.
	if runtime.GOOS == "windows" {
		return
	}
	s = startSession(t, ctx, dir, env, filepath.Join(dir, "node_modules", ".bin", "cdpmcp"), "serve", "--headless", "--no-jobs", "--log-level=debug")
	if text, isErr := s.call(t, ctx, "navigate", map[string]any{"url": site.URL("/actions.html")}); isErr {
		t.Fatalf("navigate through the launcher: %s", text)
	}
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	testbound.Until(t, "the server's browser to end after SIGTERM to the launcher", func() bool {
		_, ok := fixtures.FindBrowser(s.marker)
		return !ok
	})
	testbound.Until(t, "the launcher to exit after SIGTERM", func() bool { return s.cmd.ProcessState != nil || processGone(s.cmd.Process.Pid) })
	if log := s.stderr.String(); !strings.Contains(log, `msg="shutting down" reason=signal`) {
		t.Errorf("the server did not get the launcher's SIGTERM; stderr:\n%s", log)
	}
}

// processGone reports whether pid has exited (a zombie counts as gone).
func processGone(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || i+2 < len(b) && b[i+2] == 'Z'
}

func TestNPMLauncherSaysWhatIsMissing(t *testing.T) {
	ctx := testCtx(t, 3*time.Minute)
	platform, main := packNPM(t)
	pkgName, err := packaging.PlatformPackage(host(t))
	if err != nil {
		t.Fatal(err)
	}

	// The README's command for packages built here: both files named, offline.
	env := npmEnv(t)
	if got, want := command(t, ctx, npmProject(t), env, "npx", "-y", "--package="+platform, "--package="+main, "cdpmcp", "version"), "cdpmcp "+dist.Version+"\n"; got != want {
		t.Errorf("npx -y --package=PLATFORM --package=MAIN cdpmcp version printed %q, want %q", got, want)
	}
	// The launcher's file alone: npm looked for the platform package in the
	// registry. The launcher names the command that works, and never advises
	// installing from a registry that cannot help.
	stderr := failing(t, ctx, npmProject(t), env, "npx", "-y", "--package="+main, "cdpmcp", "version")
	for _, want := range []string{pkgName + ", which holds the binary for this machine, is not installed",
		"npx -y --package=" + platform + " --package=" + main + " cdpmcp serve"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("npx -y --package=%s said %q, want %q in it", filepath.Base(main), stderr, want)
		}
	}
	if strings.Contains(stderr, "npm install cdpmcp") || strings.Contains(stderr, "npx -y cdpmcp serve") {
		t.Errorf("npx -y --package=%s advises the registry: %q", filepath.Base(main), stderr)
	}

	// Installed from the registry without its platform package (left out by
	// --omit=optional): as npm records a registry install.
	dir := npmProject(t)
	command(t, ctx, dir, env, "npm", "install", "--no-save", "--omit=optional", main)
	record := filepath.Join(dir, "node_modules", ".package-lock.json")
	b, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	fromRegistry := strings.Replace(string(b), `"file:`, `"https://registry.npmjs.org/cdpmcp/-/`, 1)
	if err := os.WriteFile(record, []byte(fromRegistry), 0o644); err != nil {
		t.Fatal(err)
	}
	stderr = failing(t, ctx, dir, env, "npx", "cdpmcp", "version")
	for _, want := range []string{pkgName + ", which holds the binary for this machine, is not installed", "--omit=optional", "npx -y cdpmcp serve"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("launcher without %s said %q, want %q in it", pkgName, stderr, want)
		}
	}
	// On a platform with no prebuilt binary.
	launcher := filepath.Join(dir, "node_modules", "cdpmcp", "bin", "cdpmcp.js")
	stderr = failing(t, ctx, dir, env, "node", "-e", `Object.defineProperty(process, "arch", {value: "ppc64"}); require(process.argv[1])`, launcher)
	nodeOS := runtime.GOOS
	if nodeOS == "windows" {
		nodeOS = "win32"
	}
	for _, want := range []string{"no prebuilt binary for " + nodeOS + "/ppc64", "go install github.com/cdpmcp/cdpmcp/cmd/cdpmcp@latest"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("launcher on ppc64 said %q, want %q in it", stderr, want)
		}
	}
}

// failing runs a command that must exit 1 and returns its stderr.
func failing(t *testing.T, ctx context.Context, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	t.Logf("$ %s %s\n%s%s", name, strings.Join(args, " "), out, stderr.String())
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("%s %s: %v, want exit status 1", name, strings.Join(args, " "), err)
	}
	return stderr.String()
}

// tarFiles lists a package tarball's files and their modes.
func tarFiles(t *testing.T, path string) map[string]int64 {
	t.Helper()
	files := map[string]int64{}
	walkTar(t, path, func(h *tar.Header, _ io.Reader) { files[h.Name] = h.Mode })
	return files
}

// tarFile is one file of a package tarball.
func tarFile(t *testing.T, path, name string) []byte {
	t.Helper()
	var b []byte
	walkTar(t, path, func(h *tar.Header, r io.Reader) {
		if h.Name == name {
			b, _ = io.ReadAll(r)
		}
	})
	if b == nil {
		t.Fatalf("%s has no %s", path, name)
	}
	return b
}

func walkTar(t *testing.T, path string, fn func(*tar.Header, io.Reader)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		fn(h, tr)
	}
}
