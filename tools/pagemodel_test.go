package tools

import (
	"regexp"
	"testing"
)

// A model drags a card onto a board's column using only refs from one
// snapshot: the columns are sections named by their headings, with drop
// listeners added by script, and a heading's ref is its column.
func TestModelDragsCardOntoColumn(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/targets/kanban.html")}))
	s := callTool(t, c, "snapshot", nil)
	mustOK(t, s)
	done := regexp.MustCompile(`(?m)^(\d+)\[:\]## Done$`).FindStringSubmatch(s.text)
	if done == nil {
		t.Fatalf("the Done column has no ref:\n%s", s.text)
	}
	r := callTool(t, c, "drag", map[string]any{"ref": refIn(t, s.text, "Update the screenshots"), "to": done[1]})
	mustOK(t, r)
	wantIn(t, r, "HTML5 drag: moved")
	if got := textOf(t, c, "#log"); got != "Update the screenshots moved to Done" {
		t.Errorf("board log = %q; drag answered %s", got, r.text)
	}
	after := callTool(t, c, "snapshot", nil)
	if !regexp.MustCompile(`## Done\n\d+\[:\]<li draggable>Update the screenshots</li>`).MatchString(after.text) {
		t.Errorf("the card is not under Done:\n%s", after.text)
	}
}
