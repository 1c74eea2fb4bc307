// Package npmci installs pinned npm packages for builds and tests: a
// package.json and its package-lock.json, installed with npm ci into a
// folder of their own (bin/npm-tools, bin/npm-playwright), once. Only the
// install reaches the npm registry.
package npmci

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Install makes dir hold the packages pkg and lock pin, installed with npm
// ci, unless it holds that install already (its lock is lock and bin, a
// path inside dir, exists). It installs beside dir and moves the result into
// place, so that a run that stops halfway leaves nothing that looks
// installed. what names the packages in an error.
func Install(ctx context.Context, dir string, pkg, lock []byte, bin, what string) error {
	if have, err := os.ReadFile(filepath.Join(dir, "package-lock.json")); err == nil && bytes.Equal(have, lock) {
		if _, err := os.Stat(filepath.Join(dir, bin)); err == nil {
			return nil
		}
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".install-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := os.WriteFile(filepath.Join(tmp, "package.json"), pkg, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, "package-lock.json"), lock, 0o644); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("npm ci (installing %s into %s): %w\n%s", what, dir, err, out)
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	return os.Rename(tmp, dir)
}
