package webmcp

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
)

// A page's schema checks the arguments, saying where they do not fit; a
// $ref in it reads no file of this machine (a schema that would refuse the
// arguments, behind a file: reference, refuses nothing), and a schema the
// page wrote wrong checks nothing.
func TestCheckArgs(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "strict.json")
	if err := os.WriteFile(file, []byte(`{"type":"string"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tool := func(schema string) Tool { return Tool{Name: "t", InputSchema: json.RawMessage(schema)} }
	var ae *cdpclient.ArgError
	err := checkArgs(tool(`{"type":"object","properties":{"by":{"type":"number"}},"required":["by"]}`), json.RawMessage(`{"by":"x"}`))
	if !errors.As(err, &ae) || !strings.Contains(ae.Msg, "at '/by'") || strings.Contains(ae.Msg, "urn:") {
		t.Errorf("a string for a number: %v", err)
	}
	for _, ok := range []struct{ schema, args string }{
		{`{"$ref":"file://` + file + `"}`, `{}`},
		{`{"type":"object","properties":{"by":{"type":"nonsense"}}}`, `{"by":1}`},
		{``, `{"anything":true}`},
	} {
		if err := checkArgs(tool(ok.schema), json.RawMessage(ok.args)); err != nil {
			t.Errorf("schema %s: %v", ok.schema, err)
		}
	}
}
