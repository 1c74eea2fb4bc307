package extract

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestContainsNumber(t *testing.T) {
	for _, c := range []struct {
		text, num string
		want      bool
	}{
		{"price €34.90 today", "34.9", true},
		{"price €34.90 today", "34.90", true},
		{"price €134.9", "34.9", false},
		{"price €34.90", "34", false},
		{"weighs 310 g", "310", true},
		{"weighs 3100 g", "310", false},
		{"rated 4,6 of 5", "4,6", true},
		{"12", "12", true},
	} {
		if got := containsNumber(c.text, c.num); got != c.want {
			t.Errorf("containsNumber(%q, %q) = %v", c.text, c.num, got)
		}
	}
}

// A model's values are kept only where the page's text states them.
func TestMergeModel(t *testing.T) {
	s, err := ParseSchema([]byte(`{"type":"object","properties":{
		"boilTime":{"type":"string"}, "origin":{"type":"string"}, "stoves":{"type":"integer"},
		"inBox":{"type":"boolean"}, "shipping":{"type":"object","properties":{"days":{"type":"number"}}}}}`))
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
	kept := r.MergeModel("```json\n"+`{"boilTime":"Under four minutes","origin":"France","stoves":3,"shipping.days":"2","inBox":true}`+"\n```", fields, text)
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
	if r.MergeModel("sorry, I cannot", fields, text); !strings.Contains(strings.Join(r.Notes, "\n"), "not a JSON object") {
		t.Errorf("a non-JSON answer: %v", r.Notes)
	}
}
