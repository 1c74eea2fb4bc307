package packaging

import (
	"context"
	_ "embed"
	"path/filepath"

	"github.com/cdpmcp/cdpmcp/internal/npmci"
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
	if err := npmci.Install(ctx, dir, npmToolsPackage, npmToolsLock, filepath.Join("node_modules", ".bin", "mcpb"), "the mcpb CLI"); err != nil {
		return "", err
	}
	return filepath.Join(dir, "node_modules", ".bin", "mcpb"), nil
}
