package tools

import (
	"regexp"
	"runtime"
	"strconv"
	"strings"
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

// An evaluate of a 10 MB string answers its first 50,000 bytes and says how to
// get the rest; from gets the next part of the same value (the expression does
// not run again), the last part ends the value; the server keeps no more than
// the one answer.
//
// Not parallel: the heap it weighs is the whole test binary's, and the
// corpus test beside it holds pages of its own.
func TestEvaluateHugeAnswer(t *testing.T) {
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/home.html")}))
	// 10,000,000 characters, counting its runs
	expr := "window.runs = (window.runs || 0) + 1, Array.from({length: 200000}, (_, i) => String(i).padStart(49, '.') + ';').join('')"
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := callTool(t, c, "evaluate", map[string]any{"expression": expr})
	mustOK(t, r)
	m := regexp.MustCompile(`\[truncated: (\d+) more bytes; continue with from: (\d+),`).FindStringSubmatch(r.text)
	if m == nil || len(r.text) > 50200 {
		t.Fatalf("answer of %d bytes ends %q", len(r.text), r.text[max(0, len(r.text)-200):])
	}
	if rest, _ := strconv.Atoi(m[1]); rest < 9900000 {
		t.Errorf("%d more bytes, want about 9,950,000", rest)
	}
	var want strings.Builder
	want.WriteString(`"`)
	for i := range 200000 {
		want.WriteString(strings.Repeat(".", 49-len(strconv.Itoa(i))) + strconv.Itoa(i) + ";")
	}
	want.WriteString(`"`)
	from, _ := strconv.Atoi(m[2])
	if first := r.text[:strings.Index(r.text, "\n[truncated")]; first != want.String()[:from] {
		t.Errorf("the first part is not the value's start: %.100s", first)
	}
	next := callTool(t, c, "evaluate", map[string]any{"expression": expr, "from": from})
	mustOK(t, next)
	if i := strings.Index(next.text, "\n[truncated"); i < 0 || next.text[:i] != want.String()[from:from+i] || !strings.Contains(next.text, "continue with from: 100000,") {
		t.Errorf("the next part: %.200s … %s", next.text, next.text[max(0, len(next.text)-200):])
	}
	last := callTool(t, c, "evaluate", map[string]any{"expression": expr, "from": want.Len() - 100})
	if last.text != want.String()[want.Len()-100:] {
		t.Errorf("the last part: %q", last.text)
	}
	if r := callTool(t, c, "evaluate", map[string]any{"expression": "window.runs"}); r.text != "1" {
		t.Errorf("the expression ran %s times for three parts of its answer", r.text)
	}
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grown := int64(after.HeapInuse) - int64(before.HeapInuse); grown > 64<<20 {
		t.Errorf("the heap grew by %d MB over 3 answers of 10 MB", grown>>20)
	}
	if r := callTool(t, c, "evaluate", map[string]any{"expression": expr, "from": 20000000}); !r.isError || !strings.Contains(r.text, "past the end") {
		t.Errorf("from past the end: %s", r.text)
	}
}
