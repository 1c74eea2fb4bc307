package packaging_test

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/packaging"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// registrySchema compiles the registry's server.json schema (registry/).
func registrySchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(packaging.RegistrySchema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const url = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// serverJSON is the part of server.json the tests read.
type serverJSON struct {
	Schema   string `json:"$schema"`
	Name     string `json:"name"`
	Version  string `json:"version"`
	Packages []struct {
		RegistryType string `json:"registryType"`
		Identifier   string `json:"identifier"`
		Version      string `json:"version"`
		Transport    struct {
			Type string `json:"type"`
		} `json:"transport"`
		PackageArguments []struct {
			Value string `json:"value"`
		} `json:"packageArguments"`
		EnvironmentVariables []struct {
			Name string `json:"name"`
		} `json:"environmentVariables"`
	} `json:"packages"`
}

func TestServerJSONIsValidForTheRegistry(t *testing.T) {
	path, err := packaging.WriteServerJSON(dist, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := registrySchema(t).Validate(doc); err != nil {
		t.Fatalf("server.json against the registry's schema:\n%v\n%s", err, b)
	}

	var s serverJSON
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s.Schema, "/2025-12-11/") {
		t.Errorf("$schema %s is not the schema the test validates against (registry/README.md)", s.Schema)
	}
	if s.Name != packaging.MCPName || s.Version != dist.Version || len(s.Packages) != 1 {
		t.Fatalf("server.json: name %q version %q, %d packages", s.Name, s.Version, len(s.Packages))
	}
	p := s.Packages[0]
	if p.RegistryType != "npm" || p.Identifier != packaging.NPMName || p.Version != dist.Version || p.Transport.Type != "stdio" {
		t.Errorf("the npm package: %+v", p)
	}
	if len(p.PackageArguments) != 1 || p.PackageArguments[0].Value != "serve" {
		t.Errorf("packageArguments %+v, want serve", p.PackageArguments)
	}

	// Every variable it names is one `cdpmcp serve` reads.
	served := serveEnvVars(t)
	for _, v := range p.EnvironmentVariables {
		if !slices.Contains(served, v.Name) {
			t.Errorf("server.json names %s, which cdpmcp serve does not read", v.Name)
		}
	}
}

// The schema refuses what the registry refuses: a test that the validation
// above could fail.
func TestRegistrySchemaRefusesABadServerJSON(t *testing.T) {
	b, err := packaging.ServerJSON(dist.Version)
	if err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string]func(map[string]any){
		"no version":                  func(m map[string]any) { delete(m, "version") },
		"a name with no slash":        func(m map[string]any) { m["name"] = "cdpmcp" },
		"a transport it lacks":        func(m map[string]any) { pkg(m)["transport"] = map[string]any{"type": "pipe"} },
		"a 101-character description": func(m map[string]any) { m["description"] = strings.Repeat("x", 101) },
	} {
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		bad(m)
		doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(mustJSON(t, m)))
		if registrySchema(t).Validate(doc) == nil {
			t.Errorf("the schema accepts server.json with %s", name)
		}
	}
}

func pkg(m map[string]any) map[string]any { return m["packages"].([]any)[0].(map[string]any) }

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
