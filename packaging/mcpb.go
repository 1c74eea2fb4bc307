package packaging

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/template"
)

// manifestTemplate is the MCP bundle's manifest.json, with the version, the
// binary's name, the platform and the tools filled in per bundle.
//
//go:embed mcpb/manifest.json
var manifestTemplate string

// Tool is a tool as a bundle's manifest lists it.
type Tool struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// mcpbPlatforms are the bundle manifest's names for GOOS values.
var mcpbPlatforms = map[string]string{"darwin": "darwin", "windows": "win32", "linux": "linux"}

// BundleName is the file name of b's MCP bundle, named like its archive.
func BundleName(version string, b Binary) string {
	return fmt.Sprintf("cdpmcp_%s_%s_%s.mcpb", version, b.OS, b.Arch)
}

// Manifest is the bundle manifest for binary b.
func Manifest(version string, b Binary, tools []Tool) ([]byte, error) {
	platform, ok := mcpbPlatforms[b.OS]
	if !ok {
		return nil, fmt.Errorf("MCP bundles have no platform for %s", b.OS)
	}
	t, err := template.New("manifest.json").Funcs(template.FuncMap{"json": func(v any) (string, error) {
		b, err := json.Marshal(v)
		return string(b), err
	}}).Parse(manifestTemplate)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	data := struct {
		Version, Exe, Platform, License string
		Tools                           []Tool
	}{version, b.Exe(), platform, License, tools}
	if err := t.Execute(&buf, data); err != nil {
		return nil, err
	}
	// Indent the one-line tool list like the rest of the file.
	var out bytes.Buffer
	if err := json.Indent(&out, buf.Bytes(), "", "  "); err != nil {
		return nil, fmt.Errorf("manifest.json is not JSON: %w", err)
	}
	return append(out.Bytes(), '\n'), nil
}

// Bundles writes one MCP bundle per binary into out/mcpb/<os>-<arch>
// (manifest.json and server/cdpmcp) and packs each with the mcpb CLI, which
// validates the manifest, into out/cdpmcp_<version>_<os>_<arch>.mcpb. tools is
// the catalogue the manifest lists (ToolCatalogue). It returns the bundles.
func Bundles(ctx context.Context, d *Dist, out string, tools []Tool, mcpb string) ([]string, error) {
	root := filepath.Join(out, "mcpb")
	if err := os.RemoveAll(root); err != nil {
		return nil, err
	}
	var bundles []string
	for _, b := range d.Binaries {
		dir := filepath.Join(root, b.OS+"-"+b.Arch)
		manifest, err := Manifest(d.Version, b, tools)
		if err != nil {
			return nil, err
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, "manifest.json"), manifest, 0o644); err != nil {
			return nil, err
		}
		if err := copyFile(filepath.Join(dir, "server", b.Exe()), b.Path, 0o755); err != nil {
			return nil, err
		}
		if err := d.copyLicense(dir); err != nil {
			return nil, err
		}
		bundle := filepath.Join(out, BundleName(d.Version, b))
		cmd := exec.CommandContext(ctx, mcpb, "pack", dir, bundle)
		if msg, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("mcpb pack %s: %w\n%s", dir, err, msg)
		}
		bundles = append(bundles, bundle)
	}
	return bundles, nil
}

// ToolCatalogue is the catalogue that binary (one that runs here) offers with
// its default flags, as `cdpmcp tools --json` prints it: each tool's name and
// the first paragraph of its description.
func ToolCatalogue(ctx context.Context, binary string) ([]Tool, error) {
	cmd := exec.CommandContext(ctx, binary, "tools", "--json")
	cmd.Env = withoutCDPMCPEnv() // the default catalogue, whatever this shell sets
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s tools --json: %w\n%s", binary, err, stderr.Bytes())
	}
	var list struct {
		Tools []Tool `json:"tools"`
	}
	if err := json.Unmarshal(out, &list); err != nil {
		return nil, fmt.Errorf("%s tools --json: %w", binary, err)
	}
	if len(list.Tools) == 0 {
		return nil, fmt.Errorf("%s tools --json: no tools", binary)
	}
	for i, t := range list.Tools {
		first, _, _ := strings.Cut(strings.TrimSpace(t.Description), "\n\n")
		list.Tools[i].Description = first
	}
	return list.Tools, nil
}

// withoutCDPMCPEnv is the environment less cdpmcp's own variables (CDPMCP_*).
func withoutCDPMCPEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CDPMCP_") {
			env = append(env, kv)
		}
	}
	return env
}
