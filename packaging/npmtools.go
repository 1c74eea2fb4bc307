package packaging

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// The npm tools packaging needs (the mcpb CLI), pinned with their lock file.
var (
	//go:embed npmtools/package.json
	npmToolsPackage []byte
	//go:embed npmtools/package-lock.json
	npmToolsLock []byte
)

// MCPBCLI returns the mcpb CLI (npm @anthropic-ai/mcpb, the version in
// npmtools/package-lock.json), installed into dir with npm ci unless dir
// already holds that install. Only that install reaches the npm registry.
func MCPBCLI(ctx context.Context, dir string) (string, error) {
	bin := filepath.Join(dir, "node_modules", ".bin", "mcpb")
	if lock, err := os.ReadFile(filepath.Join(dir, "package-lock.json")); err == nil && bytes.Equal(lock, npmToolsLock) {
		if _, err := os.Stat(bin); err == nil {
			return bin, nil
		}
	}
	// Install beside dir and move it into place, so that a run that stops
	// halfway leaves nothing that looks installed.
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".install-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if err := os.WriteFile(filepath.Join(tmp, "package.json"), npmToolsPackage, 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(tmp, "package-lock.json"), npmToolsLock, 0o644); err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("npm ci (installing the mcpb CLI into %s): %w\n%s", dir, err, out)
	}
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		return "", err
	}
	return bin, nil
}
