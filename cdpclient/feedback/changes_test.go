package feedback

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Two frames' changes add up (all but the frame's last ref), and the delta
// says them with attributes as any.
func TestChangesAddUp(t *testing.T) {
	var a, b Changes
	if err := json.Unmarshal([]byte(`{"text":[["1","Saved"]],"attrs":[["2","class","on"]],"removed":["3"],"more":1,"last":7}`), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(`{"added":[["8","<li>"]],"flash":["Done"],"invalid":[["9","<input>","Fill in this field"]],"more":2,"last":9}`), &b); err != nil {
		t.Fatal(err)
	}
	var all Changes
	all.Add(a)
	all.Add(b)
	if all.More != 3 || all.Last != 0 || len(all.Invalid) != 1 {
		t.Errorf("added up: more %d, last %d, invalid %v", all.More, all.Last, all.Invalid)
	}
	want := &Delta{Text: [][2]string{{"1", "Saved"}}, Attrs: [][3]any{{"2", "class", "on"}}, Removed: []string{"3"},
		Added: [][2]string{{"8", "<li>"}}, Flash: []string{"Done"}, More: 3}
	if diff := cmp.Diff(want, all.Delta()); diff != "" {
		t.Errorf("delta (-want +got):\n%s", diff)
	}
}
