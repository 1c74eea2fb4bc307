package packaging_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/packaging"
)

// claudeConfig is the command a host (Claude Desktop) runs for the unpacked
// bundle in dir with the user's settings, as the mcpb library that Claude
// uses computes it (getMcpConfigForManifest).
type claudeConfig struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
}

const configScript = `
const [lib, dir, userConfig] = process.argv.slice(1);
const { getMcpConfigForManifest } = await import(require("url").pathToFileURL(lib));
const fs = require("fs"), path = require("path"), os = require("os");
const manifest = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8"));
const cfg = await getMcpConfigForManifest({
  manifest, extensionPath: dir, pathSeparator: path.sep,
  systemDirs: { HOME: os.homedir(), DESKTOP: "", DOCUMENTS: "", DOWNLOADS: "" },
  userConfig: JSON.parse(userConfig),
});
if (!cfg) throw new Error("no config: a required setting is missing");
console.log(JSON.stringify(cfg));
`

func hostConfig(t *testing.T, ctx context.Context, dir string, userConfig map[string]any) claudeConfig {
	t.Helper()
	lib := filepath.Join(npmTools, "node_modules", "@anthropic-ai", "mcpb", "dist", "index.js")
	uc, _ := json.Marshal(userConfig)
	// node -e runs CommonJS, which has require but no top-level await.
	script := "(async () => {" + configScript + "})().catch(e => { console.error(e); process.exit(1); })"
	out := command(t, ctx, dir, nil, "node", "-e", script, lib, dir, string(uc))
	var cfg claudeConfig
	if err := json.Unmarshal([]byte(out), &cfg); err != nil {
		t.Fatalf("config %q: %v", out, err)
	}
	return cfg
}

// env is the environment the host gives the server: its own plus the
// manifest's variables.
func (c claudeConfig) environ() []string {
	env := os.Environ()
	for k, v := range c.Env {
		env = append(env, k+"="+v)
	}
	return env
}

func TestBundlePacksValidatesAndRunsWithItsSettings(t *testing.T) {
	ctx := testCtx(t, 5*time.Minute)
	mcpb, err := packaging.MCPBCLI(ctx, npmTools)
	if err != nil {
		t.Fatal(err)
	}
	b := host(t)
	tools, err := packaging.ToolCatalogue(ctx, b.Path)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	bundles, err := packaging.Bundles(ctx, dist, out, tools, mcpb)
	if err != nil {
		t.Fatal(err)
	}
	if len(bundles) != 1 || filepath.Base(bundles[0]) != packaging.BundleName(dist.Version, b) {
		t.Fatalf("bundles %v, want one, %s", bundles, packaging.BundleName(dist.Version, b))
	}
	if fi, err := os.Stat(bundles[0]); err == nil {
		t.Logf("%s: %.1f MB", filepath.Base(bundles[0]), float64(fi.Size())/1e6)
	}
	command(t, ctx, out, nil, mcpb, "validate", filepath.Join(out, "mcpb", b.OS+"-"+b.Arch, "manifest.json"))
	command(t, ctx, out, nil, mcpb, "info", bundles[0])

	// Unpacked as Claude Desktop unpacks it: the manifest at the top, the
	// binary still executable.
	dir := filepath.Join(t.TempDir(), "cdpmcp")
	command(t, ctx, out, nil, mcpb, "unpack", bundles[0], dir)
	fi, err := os.Stat(filepath.Join(dir, "server", b.Exe()))
	if err != nil || fi.Mode()&0o111 == 0 {
		t.Fatalf("unpacked server/%s: %v, mode %v; want an executable", b.Exe(), err, fi)
	}
	var manifest struct {
		Version string           `json:"version"`
		License string           `json:"license"`
		Tools   []packaging.Tool `json:"tools"`
	}
	if b, err := os.ReadFile(filepath.Join(dir, "manifest.json")); err != nil || json.Unmarshal(b, &manifest) != nil {
		t.Fatalf("unpacked manifest.json: %v", err)
	}
	license, _ := os.ReadFile(filepath.Join(root, "LICENSE"))
	if got, err := os.ReadFile(filepath.Join(dir, "LICENSE")); err != nil || manifest.License != "MIT" || !bytes.Equal(got, license) {
		t.Errorf("the bundle's licence: manifest %q, LICENSE %v; want MIT and the project's LICENSE", manifest.License, err)
	}
	var listed []string
	for _, tool := range manifest.Tools {
		listed = append(listed, tool.Name)
		if tool.Description == "" {
			t.Errorf("the manifest lists %s without a description", tool.Name)
		}
	}
	if manifest.Version != dist.Version || !slices.Contains(listed, "navigate") || !slices.Contains(listed, "click") {
		t.Errorf("manifest version %q, tools %v; want %s and the default catalogue", manifest.Version, listed, dist.Version)
	}

	// The defaults: every tool the manifest lists.
	cfg := hostConfig(t, ctx, dir, map[string]any{"headless": true})
	s := startSession(t, ctx, dir, cfg.environ(), cfg.Command, cfg.Args...)
	if got := s.tools(t, ctx); !slices.Contains(got, "click") || !slices.Contains(got, "navigate") {
		t.Errorf("bundle with default settings offers %v", got)
	}
	s.close(t)

	// Read-only and one allowed origin, set in the host's settings.
	cfg = hostConfig(t, ctx, dir, map[string]any{"headless": true, "read_only": true, "allowed_origins": "http://127.0.0.1:*"})
	if cfg.Env["CDPMCP_READ_ONLY"] != "true" || cfg.Env["CDPMCP_ALLOWED_ORIGINS"] != "http://127.0.0.1:*" {
		t.Errorf("the host's environment for the settings: %v", cfg.Env)
	}
	s = startSession(t, ctx, dir, cfg.environ(), cfg.Command, cfg.Args...)
	if got := s.tools(t, ctx); slices.Contains(got, "click") || !slices.Contains(got, "navigate") {
		t.Errorf("read-only bundle offers %v, want navigate and no click", got)
	}
	if text, isErr := s.call(t, ctx, "navigate", map[string]any{"url": site.URL("/actions.html")}); isErr {
		t.Errorf("navigate to an allowed origin: %s", text)
	}
	if text, isErr := s.call(t, ctx, "navigate", map[string]any{"url": site.AltURL("/actions.html")}); !isErr {
		t.Errorf("navigate to %s, not an allowed origin, succeeded: %s", site.AltURL("/"), text)
	}
	s.close(t)
}

// The bundle's settings are variables `cdpmcp serve` reads.
func TestManifestSetsVariablesServeReads(t *testing.T) {
	m, err := packaging.Manifest(dist.Version, host(t), []packaging.Tool{{Name: "navigate", Description: "Open a URL."}})
	if err != nil {
		t.Fatal(err)
	}
	var manifest struct {
		Server struct {
			MCPConfig struct {
				Env map[string]string `json:"env"`
			} `json:"mcp_config"`
		} `json:"server"`
		UserConfig map[string]any `json:"user_config"`
	}
	if err := json.Unmarshal(m, &manifest); err != nil {
		t.Fatal(err)
	}
	served := serveEnvVars(t)
	ref := regexp.MustCompile(`^\$\{user_config\.([a-z_]+)\}$`)
	for name, value := range manifest.Server.MCPConfig.Env {
		if !slices.Contains(served, name) {
			t.Errorf("the manifest sets %s, which cdpmcp serve does not read", name)
		}
		// A setting with no default would reach the server as the literal
		// "${user_config.…}" when the user leaves it alone.
		if m := ref.FindStringSubmatch(value); m == nil {
			t.Errorf("%s=%s is not one user setting", name, value)
		} else if setting, ok := manifest.UserConfig[m[1]].(map[string]any); !ok || setting["default"] == nil {
			t.Errorf("%s comes from setting %s, which is missing or has no default", name, m[1])
		}
	}
}

// serveEnvVars are the variables `cdpmcp serve --help` lists.
func serveEnvVars(t *testing.T) []string {
	t.Helper()
	help := command(t, testCtx(t, time.Minute), filepath.Dir(host(t).Path), nil, host(t).Path, "serve", "--help")
	var names []string
	for _, m := range regexp.MustCompile(`\$(CDPMCP_[A-Z_]+)`).FindAllStringSubmatch(help, -1) {
		names = append(names, m[1])
	}
	if len(names) < 10 {
		t.Fatalf("cdpmcp serve --help lists %d variables:\n%s", len(names), help)
	}
	return names
}
