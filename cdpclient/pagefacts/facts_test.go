package pagefacts

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/google/go-cmp/cmp"
)

// One browser and one fixtures server per test binary (cdptest); each test
// gets a fresh page in its own browser context so tests can run in parallel.
func TestMain(m *testing.M) { os.Exit(cdptest.Main(m)) }

// A product page states its facts: the selected elements' values (each
// review an object of its fields), its JSON-LD, microdata, tables,
// label/value pairs and meta; without Structure only the queries are read.
func TestReadProductFacts(t *testing.T) {
	t.Parallel()
	p, ctx := cdptest.Open(t, "/jobs/product.html")
	queries := []Query{{Key: "h1", Selector: "h1"}, {Key: "none", Selector: ".nothing-here"},
		{Key: "reviews", Selector: ".review", Fields: []Query{{Key: "who", Selector: ".who"}, {Key: "stars", Selector: ".stars"}}}}
	f, err := Read(ctx, p, queries, Options{Structure: true})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]any{"h1": {"Trail Kettle 2"}, "none": {},
		"reviews": {map[string]any{"who": "Sam", "stars": "5"}, map[string]any{"who": "Kim", "stars": "4"}}}
	if d := cmp.Diff(want, f.Selected); d != "" {
		t.Errorf("selected (-want +got):\n%s", d)
	}
	if len(f.JSONLD) != 1 || !json.Valid(f.JSONLD[0]) || !strings.Contains(string(f.JSONLD[0]), `"sku":"TK-2"`) {
		t.Errorf("JSON-LD: %s", f.JSONLD)
	}
	if len(f.Microdata) != 1 || len(f.Microdata[0].Props["color"]) != 1 || f.Microdata[0].Props["color"][0] != "Graphite" {
		t.Errorf("microdata: %+v", f.Microdata)
	}
	pairs := map[string]string{}
	for _, pr := range f.Pairs {
		pairs[pr.Label+" ("+pr.From+")"] = pr.Value
	}
	for k, v := range map[string]string{"Weight (dl)": "310 g", "Height (table)": "12 cm", "Warranty (text)": "2 years"} {
		if pairs[k] != v {
			t.Errorf("pair %s = %q, want %q (all: %v)", k, pairs[k], v, pairs)
		}
	}
	var stores *Table
	for i := range f.Tables {
		if f.Tables[i].Caption == "Stores with stock" {
			stores = &f.Tables[i]
		}
	}
	if stores == nil || cmp.Diff([]string{"City", "Stock", "Phone"}, stores.Headers) != "" || len(stores.Rows) != 2 || stores.Rows[0][0] != "Lyon" {
		t.Errorf("stores table: %+v (all: %+v)", stores, f.Tables)
	}
	if f.Meta["description"] != "A light kettle for the trail." || f.Title != "Trail Kettle 2 — Outdoor Shop" || f.Login != nil {
		t.Errorf("meta %v, title %q, login %+v", f.Meta, f.Title, f.Login)
	}
	bare, err := Read(ctx, p, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(bare.JSONLD)+len(bare.Tables)+len(bare.Pairs) != 0 {
		t.Errorf("without Structure: %d JSON-LD, %d tables, %d pairs", len(bare.JSONLD), len(bare.Tables), len(bare.Pairs))
	}
}

// A sign-in page states its form: a visible password field in a form, and
// where the user name goes.
func TestReadLoginFacts(t *testing.T) {
	t.Parallel()
	p, ctx := cdptest.Open(t, "/handoff/signin")
	f, err := Read(ctx, p, nil, Options{Login: true})
	if err != nil {
		t.Fatal(err)
	}
	if f.Login == nil || !f.Login.Password || f.Login.User == "" {
		t.Errorf("login: %+v", f.Login)
	}
}
