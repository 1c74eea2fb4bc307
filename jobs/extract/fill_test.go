package extract

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/pagefacts"
	"github.com/google/go-cmp/cmp"
)

func fill(t *testing.T, schema string, facts *pagefacts.Facts) *Result {
	t.Helper()
	s, err := ParseSchema(json.RawMessage(schema))
	if err != nil {
		t.Fatal(err)
	}
	return Fill(s, json.RawMessage(schema), facts)
}

func TestFill(t *testing.T) {
	t.Parallel()
	ld := json.RawMessage(`{"@type":"Recipe","name":"Soup","recipeYield":"4 servings","nutrition":{"calories":"240 kcal"},"author":{"@type":"Person","name":"Ann"}}`)
	cases := []struct {
		name        string
		schema      string
		facts       pagefacts.Facts
		wantData    map[string]any
		wantSources map[string]string
		wantMissing []string
		noteHas     string
	}{
		{
			name:        "json-ld with nested objects and nodes standing for names",
			schema:      `{"type":"object","properties":{"name":{"type":"string"},"author":{"type":"string"},"yield":{"type":"integer","x-label":"recipeYield"},"nutrition":{"type":"object","properties":{"calories":{"type":"number"}}}}}`,
			facts:       pagefacts.Facts{JSONLD: []json.RawMessage{ld}},
			wantData:    map[string]any{"name": "Soup", "author": "Ann", "yield": int64(4), "nutrition": map[string]any{"calories": 240.0}},
			wantSources: map[string]string{"name": "json-ld", "author": "json-ld", "yield": "json-ld", "nutrition.calories": "json-ld"},
		},
		{
			name:        "nothing on the page is never invented",
			schema:      `{"type":"object","properties":{"isbn":{"type":"string"},"pages":{"type":"integer"}},"required":["isbn"]}`,
			facts:       pagefacts.Facts{Pairs: []pagefacts.Pair{{Label: "Publisher", Value: "Acme", From: "text"}}},
			wantData:    map[string]any{},
			wantSources: map[string]string{},
			wantMissing: []string{"isbn", "pages"},
			noteHas:     "the data does not satisfy the schema: at '': missing property 'isbn'",
		},
		{
			name:        "a value that is not a number is left out and said so",
			schema:      `{"type":"object","properties":{"price":{"type":"number"}}}`,
			facts:       pagefacts.Facts{Pairs: []pagefacts.Pair{{Label: "Price", Value: "call us", From: "dl"}}},
			wantData:    map[string]any{},
			wantSources: map[string]string{},
			wantMissing: []string{"price"},
			noteHas:     `the page says "call us", not a number`,
		},
		{
			name:   "a table matched by its caption, keyed by its headers",
			schema: `{"type":"object","properties":{"opening hours":{"type":"array"}}}`,
			facts: pagefacts.Facts{Tables: []pagefacts.Table{
				{Caption: "Prices", Headers: []string{"Item", "Price"}, Rows: [][]string{{"Tea", "2"}}},
				{Caption: "Opening hours", Headers: []string{"Day", "Hours"}, Rows: [][]string{{"Mon", "9-5"}, {"Sun", ""}}},
			}},
			wantData:    map[string]any{"opening hours": []any{map[string]any{"Day": "Mon", "Hours": "9-5"}, map[string]any{"Day": "Sun"}}},
			wantSources: map[string]string{"opening hours": "table"},
		},
		{
			name:        "meta tags and the main heading",
			schema:      `{"type":"object","properties":{"title":{"type":"string"},"description":{"type":"string"},"author":{"type":"string"}}}`,
			facts:       pagefacts.Facts{Title: "Doc title", Meta: map[string]string{"h1": "Main heading", "og:description": "About it", "author": "Bo"}},
			wantData:    map[string]any{"title": "Main heading", "description": "About it", "author": "Bo"},
			wantSources: map[string]string{"title": "heading", "description": "meta", "author": "meta"},
		},
		{
			name:        "a name from the document's title, without a main heading",
			schema:      `{"type":"object","properties":{"name":{"type":"string"}}}`,
			facts:       pagefacts.Facts{Title: "Doc title", Meta: map[string]string{}},
			wantData:    map[string]any{"name": "Doc title"},
			wantSources: map[string]string{"name": "title"},
		},
		{
			name:   "of several meta tags that match, the one named as the field, then Open Graph's, then Twitter's",
			schema: `{"type":"object","properties":{"description":{"type":"string"},"title":{"type":"string"},"image":{"type":"string"}}}`,
			facts: pagefacts.Facts{Meta: map[string]string{"twitter:description": "tw", "og:description": "og", "description": "plain", "dc:description": "dc",
				"twitter:title": "tw title", "og:title": "og title", "dc:title": "dc title", "dc:image": "dc.png", "twitter:image": "tw.png", "h1": "Heading"}},
			wantData:    map[string]any{"description": "plain", "title": "og title", "image": "tw.png"},
			wantSources: map[string]string{"description": "meta", "title": "meta", "image": "meta"},
		},
		{
			name:   "schema.org names of a field: an offer's priceCurrency, an aggregate rating's ratingValue",
			schema: `{"type":"object","properties":{"price":{"type":"number"},"currency":{"type":"string"},"rating":{"type":"number"}}}`,
			facts: pagefacts.Facts{JSONLD: []json.RawMessage{json.RawMessage(`{"@type":"Product","name":"Kettle","offers":{"@type":"Offer","price":"34.90","priceCurrency":"EUR"}}`)},
				Microdata: []pagefacts.MicrodataItem{{Props: map[string][]any{"aggregateRating": {map[string]any{"props": map[string]any{"ratingValue": []any{"4.6"}}}}}}}},
			wantData:    map[string]any{"price": 34.9, "currency": "EUR", "rating": 4.6},
			wantSources: map[string]string{"price": "json-ld", "currency": "json-ld", "rating": "microdata"},
		},
		{
			name:        "x-selector with no match is missing, with a note",
			schema:      `{"type":"object","properties":{"sku":{"type":"string","x-selector":".sku"}}}`,
			facts:       pagefacts.Facts{Selected: map[string][]any{}},
			wantData:    map[string]any{},
			wantSources: map[string]string{},
			wantMissing: []string{"sku"},
			noteHas:     `x-selector ".sku" matched nothing`,
		},
		{
			name:        "a required field with no properties is missing",
			schema:      `{"type":"object","properties":{"name":{"type":"string"}},"required":["name","sku"]}`,
			facts:       pagefacts.Facts{JSONLD: []json.RawMessage{ld}},
			wantData:    map[string]any{"name": "Soup"},
			wantSources: map[string]string{"name": "json-ld"},
			wantMissing: []string{"sku"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := fill(t, c.schema, &c.facts)
			// The same page gives the same answer, whatever order Go's
			// maps of the facts come in.
			for range 20 {
				if again := fill(t, c.schema, &c.facts); !cmp.Equal(r, again) {
					t.Fatalf("another fill of the same facts differs (-first +again):\n%s", cmp.Diff(r, again))
				}
			}
			if d := cmp.Diff(c.wantData, r.Data); d != "" {
				t.Errorf("data (-want +got):\n%s", d)
			}
			if d := cmp.Diff(c.wantSources, r.Sources); d != "" {
				t.Errorf("sources (-want +got):\n%s", d)
			}
			if d := cmp.Diff(c.wantMissing, r.Missing); d != "" {
				t.Errorf("missing (-want +got):\n%s", d)
			}
			if c.noteHas != "" && !strings.Contains(strings.Join(r.Notes, "\n"), c.noteHas) {
				t.Errorf("notes %q lack %q", r.Notes, c.noteHas)
			}
			// The schema is the caller's: no note names it by a made-up address.
			if notes := strings.Join(r.Notes, "\n"); strings.Contains(notes, "schema.json") || strings.Contains(notes, "file:") || strings.Contains(notes, "urn:") {
				t.Errorf("notes %q name the schema by an address", r.Notes)
			}
		})
	}
}

func TestCheckSchema(t *testing.T) {
	t.Parallel()
	for schema, want := range map[string]string{
		`{"type":"object","properties":{"a":{"type":"string"}}}`: "",
		`{"properties":{"a":{}}}`:                                "",
		`[1,2]`:                                                  "not a JSON schema object",
		`{"type":"object"}`:                                      "names no properties",
		`{"type":"array","items":{}}`:                            "must describe an object",
		`{"type":"object","properties":{"a":{"minimum":"x"}}}`:   "not a valid JSON schema: at '/properties/a/minimum': got string, want number",
		// A $ref reads no file of this machine.
		`{"type":"object","properties":{"a":{"$ref":"file:///etc/hostname"}}}`: `not a valid JSON schema: failing loading "file:///etc/hostname"`,
	} {
		err := CheckSchema(json.RawMessage(schema))
		if (err == nil) != (want == "") || err != nil && !strings.Contains(err.Error(), want) {
			t.Errorf("CheckSchema(%s) = %v, want %q", schema, err, want)
		}
		if err != nil && (strings.Contains(err.Error(), "schema.json") || strings.Contains(err.Error(), "urn:")) {
			t.Errorf("CheckSchema(%s) = %v names the schema by an address", schema, err)
		}
	}
}

// FuzzFill: any schema and page facts give an answer, never a panic.
func FuzzFill(f *testing.F) {
	f.Add(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"array","items":{"type":"object","properties":{"x":{"type":"integer"}}}}}}`, `{"a":"1,5","b":[{"x":"2"}]}`, "A", "3")
	f.Fuzz(func(t *testing.T, schema, ld, label, value string) {
		if CheckSchema(json.RawMessage(schema)) != nil {
			return
		}
		s, _ := ParseSchema(json.RawMessage(schema))
		facts := &pagefacts.Facts{JSONLD: []json.RawMessage{json.RawMessage(ld)}, Pairs: []pagefacts.Pair{{Label: label, Value: value, From: "text"}},
			Tables: []pagefacts.Table{{Headers: []string{label}, Rows: [][]string{{value}}}}}
		r := Fill(s, json.RawMessage(schema), facts)
		if r.Data == nil {
			t.Fatal("nil data")
		}
		if _, err := json.Marshal(r); err != nil {
			t.Fatal(err)
		}
	})
}
