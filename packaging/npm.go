package packaging

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// NPMName is the npm package users install; it runs the binary of one of its
// optional dependencies, the platform packages.
const NPMName = "cdpmcp"

// MCPName is cdpmcp's name in the MCP registry. The npm package names it
// (package.json "mcpName"): that is how the registry checks who owns it.
const MCPName = "io.github.cdpmcp/cdpmcp"

// npmLauncher is the main package's files: the launcher and its README.
//
//go:embed npm/cdpmcp
var npmLauncher embed.FS

// npmPlatform is how npm names a Go target: process.platform and process.arch.
type npmPlatform struct{ OS, CPU string }

// npmPlatforms are the targets with a platform package; the launcher
// (npm/cdpmcp/bin/cdpmcp.js) knows the same list.
var npmPlatforms = map[[2]string]npmPlatform{
	{"linux", "amd64"}:   {"linux", "x64"},
	{"linux", "arm64"}:   {"linux", "arm64"},
	{"darwin", "amd64"}:  {"darwin", "x64"},
	{"darwin", "arm64"}:  {"darwin", "arm64"},
	{"windows", "amd64"}: {"win32", "x64"},
	{"windows", "arm64"}: {"win32", "arm64"},
}

// PlatformPackage is the npm package that holds b.
func PlatformPackage(b Binary) (string, error) {
	p, ok := npmPlatforms[[2]string{b.OS, b.Arch}]
	if !ok {
		return "", fmt.Errorf("no npm package for %s/%s", b.OS, b.Arch)
	}
	return "@cdpmcp/" + p.OS + "-" + p.CPU, nil
}

// packageJSON is the part of package.json the packages use. Field order is
// the file's.
type packageJSON struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Description          string            `json:"description"`
	License              string            `json:"license"`
	Keywords             []string          `json:"keywords,omitempty"`
	Homepage             string            `json:"homepage"`
	Bugs                 string            `json:"bugs"`
	Repository           map[string]string `json:"repository"`
	MCPName              string            `json:"mcpName,omitempty"`
	Bin                  map[string]string `json:"bin,omitempty"`
	OS                   []string          `json:"os,omitempty"`
	CPU                  []string          `json:"cpu,omitempty"`
	Files                []string          `json:"files"`
	Engines              map[string]string `json:"engines,omitempty"`
	PreferUnplugged      bool              `json:"preferUnplugged,omitempty"`
	OptionalDependencies map[string]string `json:"optionalDependencies,omitempty"`
}

func basePackage(name, version, description string) packageJSON {
	return packageJSON{
		Name:        name,
		Version:     version,
		Description: description,
		License:     License,
		Homepage:    Repository + "#readme",
		Bugs:        Repository + "/issues",
		Repository:  map[string]string{"type": "git", "url": "git+" + Repository + ".git"},
	}
}

// NPM writes the npm packages for d's binaries into out/npm (one folder each)
// and packs every one with npm pack into out/npm. The main package depends on
// the platform packages of every target, built here or not. It returns the
// tarballs, the platform packages first.
func NPM(ctx context.Context, d *Dist, out string) ([]string, error) {
	root := filepath.Join(out, "npm")
	if err := os.RemoveAll(root); err != nil {
		return nil, err
	}
	var dirs []string
	for _, b := range d.Binaries {
		dir, err := writePlatformPackage(root, d.Version, b)
		if err != nil {
			return nil, err
		}
		dirs = append(dirs, dir)
	}
	dir, err := writeMainPackage(root, d.Version)
	if err != nil {
		return nil, err
	}
	dirs = append(dirs, dir)
	var tarballs []string
	for _, dir := range dirs {
		if err := d.copyLicense(dir); err != nil {
			return nil, err
		}
		t, err := npmPack(ctx, dir, root)
		if err != nil {
			return nil, err
		}
		tarballs = append(tarballs, t)
	}
	return tarballs, nil
}

func writePlatformPackage(root, version string, b Binary) (string, error) {
	name, err := PlatformPackage(b)
	if err != nil {
		return "", err
	}
	p := npmPlatforms[[2]string{b.OS, b.Arch}]
	dir := filepath.Join(root, p.OS+"-"+p.CPU)
	pkg := basePackage(name, version, fmt.Sprintf("The cdpmcp binary for %s %s. Install cdpmcp, which runs it.", p.OS, p.CPU))
	pkg.OS, pkg.CPU = []string{p.OS}, []string{p.CPU}
	pkg.Files = []string{"bin/" + b.Exe()}
	// Yarn PnP: a binary must be on disk to run.
	pkg.PreferUnplugged = true
	if err := copyFile(filepath.Join(dir, "bin", b.Exe()), b.Path, 0o755); err != nil {
		return "", err
	}
	readme := fmt.Sprintf("# %s\n\nThe `cdpmcp` binary for %s on %s. Do not install it yourself: install [cdpmcp](https://www.npmjs.com/package/cdpmcp),\nwhich has this package as an optional dependency and runs its binary.\n", name, p.CPU, p.OS)
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte(readme), 0o644); err != nil {
		return "", err
	}
	return dir, writeJSON(filepath.Join(dir, "package.json"), pkg)
}

func writeMainPackage(root, version string) (string, error) {
	dir := filepath.Join(root, NPMName)
	pkg := basePackage(NPMName, version, "An MCP server that gives AI clients a real browser (Chrome or Chromium) through the Chrome DevTools Protocol")
	pkg.Keywords = []string{"mcp", "mcp-server", "modelcontextprotocol", "browser", "chrome", "chromium", "cdp", "devtools", "automation"}
	pkg.MCPName = MCPName
	pkg.Bin = map[string]string{"cdpmcp": "bin/cdpmcp.js"}
	pkg.Files = []string{"bin/cdpmcp.js"}
	pkg.Engines = map[string]string{"node": ">=18"}
	pkg.OptionalDependencies = map[string]string{}
	for target := range npmPlatforms {
		name, _ := PlatformPackage(Binary{OS: target[0], Arch: target[1]})
		pkg.OptionalDependencies[name] = version
	}
	err := fs.WalkDir(npmLauncher, "npm/cdpmcp", func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := npmLauncher.ReadFile(path)
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if strings.HasSuffix(path, ".js") {
			mode = 0o755
		}
		dst := filepath.Join(dir, strings.TrimPrefix(path, "npm/cdpmcp/"))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, b, mode)
	})
	if err != nil {
		return "", err
	}
	return dir, writeJSON(filepath.Join(dir, "package.json"), pkg)
}

// npmPack packs the package in dir into dest and returns the tarball's path.
func npmPack(ctx context.Context, dir, dest string) (string, error) {
	cmd := exec.CommandContext(ctx, "npm", "pack", "--json", "--pack-destination", dest)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("npm pack %s: %w\n%s", dir, err, stderr.Bytes())
	}
	var packed []struct {
		Filename string `json:"filename"`
	}
	if err := json.Unmarshal(out, &packed); err != nil || len(packed) != 1 {
		return "", fmt.Errorf("npm pack %s: unexpected output %q", dir, out)
	}
	return filepath.Join(dest, packed[0].Filename), nil
}
