// Package packaging turns GoReleaser's builds (dist/) into what users install
// cdpmcp with: the npm packages (cdpmcp and one @cdpmcp/<os>-<cpu> per
// platform), the MCP bundles (.mcpb) for Claude Desktop, and server.json for
// the MCP registry.
package packaging

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
)

// Repository is where cdpmcp's source, releases and issues are.
const Repository = "https://github.com/cdpmcp/cdpmcp"

// Binary is one release build of cdpmcp.
type Binary struct {
	OS   string // GOOS
	Arch string // GOARCH
	Path string // absolute
}

// Exe is the binary's file name on its OS.
func (b Binary) Exe() string {
	if b.OS == "windows" {
		return "cdpmcp.exe"
	}
	return "cdpmcp"
}

// Dist is what a GoReleaser run left in its dist folder.
type Dist struct {
	Dir      string
	Version  string // the release version: the tag without "v", or the snapshot's
	Commit   string
	Binaries []Binary // sorted by OS, then architecture
}

// ReadDist reads dist's metadata.json and artifacts.json. GoReleaser writes
// artifact paths relative to the project, the folder that holds dist.
func ReadDist(dir string) (*Dist, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	var meta struct {
		Version string `json:"version"`
		Commit  string `json:"commit"`
	}
	if err := readJSON(filepath.Join(dir, "metadata.json"), &meta); err != nil {
		return nil, fmt.Errorf("%w (run make release-snapshot, or goreleaser build, first)", err)
	}
	if meta.Version == "" {
		return nil, fmt.Errorf("%s: no version", filepath.Join(dir, "metadata.json"))
	}
	var artifacts []struct {
		Type   string `json:"type"`
		Path   string `json:"path"`
		Goos   string `json:"goos"`
		Goarch string `json:"goarch"`
	}
	if err := readJSON(filepath.Join(dir, "artifacts.json"), &artifacts); err != nil {
		return nil, err
	}
	d := &Dist{Dir: dir, Version: meta.Version, Commit: meta.Commit}
	for _, a := range artifacts {
		if a.Type != "Binary" {
			continue
		}
		p := a.Path
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(dir), p)
		}
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("artifacts.json lists %s: %w", a.Path, err)
		}
		d.Binaries = append(d.Binaries, Binary{OS: a.Goos, Arch: a.Goarch, Path: p})
	}
	if len(d.Binaries) == 0 {
		return nil, fmt.Errorf("%s lists no binaries", filepath.Join(dir, "artifacts.json"))
	}
	sort.Slice(d.Binaries, func(i, j int) bool {
		a, b := d.Binaries[i], d.Binaries[j]
		return a.OS < b.OS || a.OS == b.OS && a.Arch < b.Arch
	})
	return d, nil
}

// Host is the binary that runs on this machine.
func (d *Dist) Host() (Binary, error) {
	for _, b := range d.Binaries {
		if b.OS == runtime.GOOS && b.Arch == runtime.GOARCH {
			return b, nil
		}
	}
	return Binary{}, fmt.Errorf("%s has no binary for this machine (%s/%s)", d.Dir, runtime.GOOS, runtime.GOARCH)
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// copyFile copies src to dst with mode.
func copyFile(dst, src string, mode os.FileMode) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, b, mode)
}
