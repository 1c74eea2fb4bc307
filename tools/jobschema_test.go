// Built without the race detector only: the test opens a job store on SQLite,
// whose race build is 48 CPU-seconds of make test (RACE_PLAIN in the Makefile).

//go:build !race

package tools

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// seedSchema compiles one of seed 002's schemas (testdata/seed002).
func seedSchema(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "seed002", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(name+".json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// seedCovered checks that declared keeps every constraint of seed: the same
// types, bounds, enums, items and required fields, property by property.
func seedCovered(t *testing.T, where string, seed, declared map[string]any) {
	t.Helper()
	for k, v := range seed {
		if k == "description" {
			continue
		}
		d, ok := declared[k]
		if !ok {
			t.Errorf("%s: %q is missing", where, k)
			continue
		}
		sm, isMap := v.(map[string]any)
		if !isMap {
			if !reflect.DeepEqual(v, d) {
				t.Errorf("%s.%s: %v, seed says %v", where, k, d, v)
			}
			continue
		}
		dm, _ := d.(map[string]any)
		seedCovered(t, where+"."+k, sm, dm)
	}
}

func TestJobSchemasAreSeed002s(t *testing.T) {
	t.Parallel()
	c, _ := jobServer(t)
	list, err := c.ListTools(testCtx(t), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"browser.job.submit": "submit", "browser.job.status": "status", "browser.job.cancel": "cancel",
		"browser.job.resume": "resume", "browser.snapshot.extract_structured": "extract_structured"}
	found := 0
	for _, tool := range list.Tools {
		file, ok := files[tool.Name]
		if !ok {
			continue
		}
		found++
		b, _ := json.Marshal(tool)
		var got struct {
			InputSchema  map[string]any `json:"inputSchema"`
			OutputSchema map[string]any `json:"outputSchema"`
			Annotations  mcp.ToolAnnotation
		}
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		for _, io := range []struct {
			suffix string
			schema map[string]any
		}{{".in", got.InputSchema}, {".out", got.OutputSchema}} {
			raw, _ := os.ReadFile(filepath.Join("testdata", "seed002", file+io.suffix+".json"))
			var seed map[string]any
			_ = json.Unmarshal(raw, &seed)
			seedCovered(t, tool.Name+io.suffix, seed, io.schema)
		}
		a := got.Annotations
		if a.ReadOnlyHint == nil || a.DestructiveHint == nil || a.IdempotentHint == nil || a.OpenWorldHint == nil {
			t.Errorf("%s: not all four hints set", tool.Name)
		}
	}
	if found != 5 {
		t.Errorf("%d of the five job tools listed", found)
	}
}
