package extract

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/pagefacts"
	"github.com/google/go-cmp/cmp"
)

// A number is found as the page writes it, whole: grouping and decimal marks
// either way, never a part of a longer number.
func TestNumbersOnPage(t *testing.T) {
	num := &Schema{Type: "number"}
	for _, c := range []struct {
		text string
		said any
		want bool
	}{
		{"price €34.90 today", 34.9, true},
		{"price €34.90 today", "34.90", true},
		{"price €134.9", 34.9, false},
		{"price €34.90", 34.0, false},
		{"weighs 310 g", 310.0, true},
		{"weighs 3100 g", 310.0, false},
		{"rated 4,6 of 5", 4.6, true},
		{"now $1,299.00", 1299.0, true},
		{"now $1,299.00", "1,299.00", true},
		{"now $1,299.00", 299.0, false},
		{"jetzt 1.299,00 €", 1299.0, true},
		{"now $1,299.50", 1299.5, true},
		{"12", 12.0, true},
		{"it costs a lot", "twelve", false},
	} {
		if _, got := checkAgainst(c.said, num, squash(c.text)); got != c.want {
			t.Errorf("%v in %q: %v", c.said, c.text, got)
		}
	}
}

// A model's values are kept only where the page's text states them.
func TestMergeModel(t *testing.T) {
	t.Parallel()
	raw := []byte(`{"type":"object","properties":{
		"boilTime":{"type":"string"}, "origin":{"type":"string"}, "stoves":{"type":"integer"},
		"inBox":{"type":"boolean"}, "shipping":{"type":"object","properties":{"days":{"type":"number"}}}}}`)
	s, err := ParseSchema(raw)
	if err != nil {
		t.Fatal(err)
	}
	r := &Result{Data: map[string]any{}, Sources: map[string]string{}, Missing: []string{"boilTime", "origin", "stoves", "inBox", "shipping.days"}}
	r.restateMissing()
	fields := r.Askable(s)
	if got := slices.Sorted(maps.Keys(fields)); !slices.Equal(got, []string{"boilTime", "origin", "shipping.days", "stoves"}) {
		t.Fatalf("askable: %v (a boolean cannot be checked)", got)
	}
	text := "Boils half a litre in  under four minutes.\nWorks on 3 stoves. Ships in 2 days."
	sys, user := ModelPrompt(fields, "http://x/", text)
	if !strings.Contains(sys, "Never guess") || !strings.Contains(user, "- shipping.days (number)") || !strings.Contains(user, "under four minutes") {
		t.Errorf("prompt:\n%s\n%s", sys, user)
	}
	kept := r.MergeModel("```json\n"+`{"boilTime":"Under four minutes","origin":"France","stoves":3,"shipping":{"days":"2"},"inBox":true}`+"\n```", fields, text, raw)
	want := map[string]any{"boilTime": "Under four minutes", "stoves": 3.0, "shipping": map[string]any{"days": 2.0}}
	if diff := cmp.Diff(want, r.Data); diff != "" || !slices.Equal(kept, []string{"boilTime", "shipping.days", "stoves"}) {
		t.Errorf("data (-want +got):\n%s kept %v", diff, kept)
	}
	if !slices.Equal(r.Missing, []string{"origin", "inBox"}) || r.Sources["stoves"] != "model" {
		t.Errorf("missing %v, sources %v", r.Missing, r.Sources)
	}
	notes := strings.Join(r.Notes, "\n")
	for _, w := range []string{"the model named origin (France), which the page's text does not state", "the page does not state origin, inBox; left out"} {
		if !strings.Contains(notes, w) {
			t.Errorf("notes lack %q:\n%s", w, notes)
		}
	}
	if strings.Count(notes, missingNote) != 1 {
		t.Errorf("the missing fields are named twice:\n%s", notes)
	}
	if r.MergeModel("sorry, I cannot", fields, text, raw); !strings.Contains(strings.Join(r.Notes, "\n"), "not a JSON object") {
		t.Errorf("a non-JSON answer: %v", r.Notes)
	}
}

// A model's value the page states but the schema refuses (below a minimum,
// outside an enum) is left out too, and the schema note says what still fails.
func TestMergeModelChecksTheSchema(t *testing.T) {
	raw := []byte(`{"type":"object","required":["price","stock"],"properties":{
		"price":{"type":"number","minimum":10}, "stock":{"type":"string","enum":["in stock","sold out"]}, "name":{"type":"string"}}}`)
	s, err := ParseSchema(raw)
	if err != nil {
		t.Fatal(err)
	}
	r := Fill(s, raw, &pagefacts.Facts{})
	fields := r.Askable(s)
	kept := r.MergeModel(`{"price": 4, "stock": "In Stock", "name": "Kettle"}`, fields, "The Kettle, only 4 euros. In Stock now.", raw)
	if !slices.Equal(kept, []string{"name"}) || r.Data["price"] != nil || r.Data["stock"] != nil {
		t.Errorf("kept %v, data %v", kept, r.Data)
	}
	notes := strings.Join(r.Notes, "\n")
	for _, w := range []string{"the model's price, stock did not satisfy the schema; left out", invalidNote} {
		if !strings.Contains(notes, w) {
			t.Errorf("notes lack %q:\n%s", w, notes)
		}
	}
	if strings.Count(notes, invalidNote) != 1 {
		t.Errorf("the schema note is there twice:\n%s", notes)
	}
}
