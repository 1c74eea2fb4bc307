package pagemodel

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/cdpclient/snapshot"
)

// headingRef finds the ref on the heading line "N[:]## name".
func headingRef(t *testing.T, snap, name string) string {
	t.Helper()
	return cdptest.HeadingRef(t, snap, name)
}

// A board whose columns are sections named by their headings, with drop
// listeners added by script: each column's heading line carries the column's
// ref, the drop zone found through the browser's listener list has a line of
// its own, the named menu too; the lists of cards inside the columns add no
// lines.
func TestSnapshotTargets(t *testing.T) {
	t.Parallel()
	p, s := snapshotOf(t, "/targets/kanban.html", Options{})
	ctx := testContext(t)
	wantIn(t, s, "[:]<nav>Boards</nav>\n", "[:]# Release 4.2\n", "[:]<li draggable>Fix the login redirect</li>",
		"[:]<div drop>Drop a card here to archive it</div>")
	wantNotIn(t, s, "<ul")
	for name, id := range map[string]string{"To do": `"todo"`, "Doing": `"doing"`, "Done": `"done"`} {
		got, err := evaluateOn(ctx, p, headingRef(t, s, name), "(el) => el.id")
		if err != nil || got != id {
			t.Errorf("the ref on the %q heading is %s (%v), want the section %s", name, got, err, id)
		}
	}
	// Dropping on the refs moves the cards: cdpclient/input (drag).
}

// A long article whose references list (187 items) is part of it: the
// default snapshot shows every reference and summarises the menu and the
// footer. A smaller budget summarises the chrome first, then shortens the
// references, then cuts the text at the end; following the markers shows
// every paragraph and every reference.
func TestReadingArticleLists(t *testing.T) {
	t.Parallel()
	p, s := snapshotOf(t, "/targets/references.html", Options{})
	ctx := testContext(t)
	refRe := regexp.MustCompile(`(?m)^_\[:\]Reference (\d+): `)
	if n := len(refRe.FindAllString(s, -1)); n != 187 {
		t.Errorf("the default snapshot shows %d of 187 references", n)
	}
	wantIn(t, s, "more links in this menu: snapshot {ref: ", "more links in this footer: snapshot {ref: ")
	t.Logf("default snapshot: %d estimated tokens", snapshot.Estimate(s))
	for _, budget := range []int{5000, 2000} {
		out, err := Snapshot(ctx, p, Options{MaxTokens: budget})
		if err != nil {
			t.Fatal(err)
		}
		wantIn(t, out, "more links in this menu: snapshot {ref: ", "Paragraph 1.1: ")
		if budget == 5000 {
			wantIn(t, out, "Paragraph 8.5: ", "more items in this list: snapshot {from: ")
		}
		refs, paras := map[string]bool{}, map[string]bool{}
		todo, done := []int{0}, map[int]bool{}
		for len(todo) > 0 && len(done) < 40 {
			from := todo[0]
			todo = todo[1:]
			if done[from] {
				continue
			}
			done[from] = true
			out, err := Snapshot(ctx, p, Options{MaxTokens: budget, From: from})
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range refRe.FindAllStringSubmatch(out, -1) {
				refs[m[1]] = true
			}
			for _, m := range paragraphRe.FindAllStringSubmatch(out, -1) {
				paras[m[1]] = true
			}
			for _, m := range fromRe.FindAllStringSubmatch(out, -1) {
				n, _ := strconv.Atoi(m[1])
				todo = append(todo, n)
			}
		}
		if len(refs) != 187 || len(paras) != 40 {
			t.Errorf("budget %d: following the markers showed %d of 187 references and %d of 40 paragraphs", budget, len(refs), len(paras))
		}
	}
}
