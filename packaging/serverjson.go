package packaging

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"text/template"
)

// serverTemplate is server.json for the MCP registry, with the version filled
// in: it names the npm package of the same version.
//
//go:embed server.json
var serverTemplate string

// RegistrySchema is the registry's JSON schema for server.json, the copy
// described in registry/README.md.
//
//go:embed registry/server.schema.json
var RegistrySchema []byte

// ServerJSON is server.json for version.
func ServerJSON(version string) ([]byte, error) {
	t, err := template.New("server.json").Funcs(template.FuncMap{"json": func(v any) (string, error) {
		b, err := json.Marshal(v)
		return string(b), err
	}}).Parse(serverTemplate)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, struct{ Version string }{version}); err != nil {
		return nil, err
	}
	if !json.Valid(buf.Bytes()) {
		return nil, fmt.Errorf("server.json is not JSON")
	}
	return buf.Bytes(), nil
}

// WriteServerJSON writes out/server.json for d's version and returns its path.
func WriteServerJSON(d *Dist, out string) (string, error) {
	b, err := ServerJSON(d.Version)
	if err != nil {
		return "", err
	}
	path := filepath.Join(out, "server.json")
	return path, os.WriteFile(path, b, 0o644)
}
