package actions

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCatalogueIsWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, a := range All() {
		if seen[a.Name] {
			t.Errorf("%s is in the catalogue twice", a.Name)
		}
		seen[a.Name] = true
		if a.Description(false) == "" || len(a.Description(false)) > 300 {
			t.Errorf("%s: description of %d bytes", a.Name, len(a.Description(false)))
		}
		var schema struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		}
		if err := json.Unmarshal(a.Schema(), &schema); err != nil || schema.Type != "object" {
			t.Errorf("%s: schema %s: %v", a.Name, a.Schema(), err)
		}
		if len(schema.Properties) != len(a.Params()) {
			t.Errorf("%s: %d properties for %d params", a.Name, len(schema.Properties), len(a.Params()))
		}
		h := a.Hints(true)
		if a.AllowedIn(true) && a.Class == ClassAct {
			t.Errorf("%s acts on the page yet is offered in read-only mode", a.Name)
		}
		if h.ReadOnly && h.Destructive {
			t.Errorf("%s is both read-only and destructive", a.Name)
		}
	}
}

func TestSchemaFromArguments(t *testing.T) {
	got := string(Click.Schema())
	want := `{"type":"object","properties":{"ref":{"type":"string","description":"from snapshot"},"selector":{"type":"string","description":"CSS, if no ref"},` +
		`"button":{"type":"string","enum":["left","right","middle"],"description":"default left"},"clickCount":{"type":"integer","description":"2 for double-click"},` +
		`"modifiers":{"type":"array","items":{"type":"string","enum":["Alt","Control","Meta","Shift"]},"description":"keys held"},"page":{"type":"string","description":"tab id"}}}`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("click schema (-want +got):\n%s", diff)
	}
	if got, want := string(WaitForTimeout.Schema()), `{"type":"object","properties":{"ms":{"type":"integer","description":"milliseconds"}},"required":["ms"]}`; got != want {
		t.Errorf("waitForTimeout schema = %s, want %s", got, want)
	}
}

func TestBindRefusesWithHints(t *testing.T) {
	tests := []struct{ raw, msg string }{
		{`{"ref":12,"button":"left"}`, ""},
		{`{"ref":true}`, `argument "ref" must be a string, not true`},
		{`{"nope":1}`, `unknown argument "nope"`},
		{`[1]`, `arguments must be a JSON object, not array`},
	}
	for _, tt := range tests {
		var a clickArgs
		err := bind(json.RawMessage(tt.raw), &a)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.msg {
			t.Errorf("bind(%s) = %q, want %q", tt.raw, got, tt.msg)
		}
	}
}
