package pagemodel

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/cdpclient/snapshot"
)

// snapshotOf opens path and returns its snapshot with opts.
func snapshotOf(t *testing.T, path string, opts Options) (*cdpclient.Page, string) {
	t.Helper()
	p := newTestPage(t)
	ctx := testContext(t)
	if err := outcome(p.Navigate(ctx, cdptest.Site.URL(path), cdpclient.WaitLoad)); err != nil {
		t.Fatal(err)
	}
	s, err := Snapshot(ctx, p, opts)
	if err != nil {
		t.Fatal(err)
	}
	return p, s
}

func wantIn(t *testing.T, s string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(s, w) {
			t.Errorf("snapshot lacks %q", w)
		}
	}
}

func wantNotIn(t *testing.T, s string, bad ...string) {
	t.Helper()
	for _, b := range bad {
		if strings.Contains(s, b) {
			t.Errorf("snapshot shows %q", b)
		}
	}
}

var (
	summaryRe   = regexp.MustCompile(`(?m)^_\[:\]… (\d+) more (\w+)[^\n]* in ([^:\n]+): snapshot \{ref: (\d+)\}$`)
	fromRe      = regexp.MustCompile(`snapshot \{from: (\d+)\}`)
	paragraphRe = regexp.MustCompile(`(?m)^_\[:\]Paragraph (\d+\.\d+): `)
)

// The default snapshot of a long article under a mega-menu carries every
// paragraph, with its links in its sentences, and summarises the menu, the
// related stories and the footer; a summary's ref shows what it summarises.
func TestReadingArticleUnderMegaMenu(t *testing.T) {
	t.Parallel()
	p, s := snapshotOf(t, "/reading/article.html", Options{})
	for part := 1; part <= 8; part++ {
		for i := range 5 {
			wantIn(t, s, fmt.Sprintf("_[:]Paragraph %d.%d: ", part, i))
		}
	}
	wantIn(t, s, "[:]# The harbour at the edge of the valley", "[:]## Part 8: ",
		"_[:]Quoted: the harbour never sleeps", "_[:]Second point about the orchard in winter.",
		"[image: The old harbour at dawn]", "_[:]Figure caption: the old harbour at dawn", "_[:]Tuesday | 06:58 | 13:15",
		"_[:]The end of the article", "<a>Terms</a>", "_[:]We use cookies to count readers.", "<button>Accept cookies</button>")
	// A link stays in its sentence.
	if !regexp.MustCompile(`(?m)^_\[:\]Paragraph 1\.0: .* near the \d+\[:\]<a>\w+ landing 1</a>\. `).MatchString(s) {
		t.Error("the first paragraph's link is not inside its sentence")
	}
	wantNotIn(t, s, "Food topic 9", "Related story number 7", "Footer 3.4")
	if got := snapshot.Estimate(s); got > 6500 {
		t.Errorf("snapshot costs %d estimated tokens", got)
	}
	sums := summaryRe.FindAllStringSubmatch(s, -1)
	where := map[string]string{}
	for _, m := range sums {
		where[m[3]] = m[4]
	}
	for _, w := range []string{"this header", "this sidebar", "this footer"} {
		if where[w] == "" {
			t.Errorf("no summary in %s:\n%s", w, s)
		}
	}
	// The header's summary opens with its ref: all 120 links of the mega-menu.
	menu, err := Snapshot(testContext(t), p, Options{Scope: cdpclient.Target{Ref: where["this header"]}})
	if err != nil {
		t.Fatal(err)
	}
	for _, sec := range []string{"News", "Sport", "Business", "Culture", "Science", "Travel", "Food", "Opinion"} {
		wantIn(t, menu, fmt.Sprintf("<a>%s topic 1</a>", sec), fmt.Sprintf("<a>%s topic 15</a>", sec))
	}
	if strings.Contains(menu, "Paragraph") {
		t.Error("the menu's snapshot shows the article")
	}
}

// Under a small budget the chrome goes first, then the text is cut at the end
// with a continuation; following the continuations shows every paragraph
// exactly once.
func TestReadingContinuation(t *testing.T) {
	t.Parallel()
	p, _ := snapshotOf(t, "/reading/article.html", Options{MaxTokens: -1})
	ctx := testContext(t)
	seen := map[string]int{}
	from, pages := 0, 0
	for ; pages < 20; pages++ {
		s, err := Snapshot(ctx, p, Options{MaxTokens: 1500, From: from})
		if err != nil {
			t.Fatal(err)
		}
		if got := snapshot.Estimate(s); got > 1500 {
			t.Errorf("page %d costs %d", pages, got)
		}
		for _, m := range paragraphRe.FindAllStringSubmatch(s, -1) {
			seen[m[1]]++
		}
		m := fromRe.FindAllStringSubmatch(s, -1)
		if len(m) == 0 || !strings.Contains(s, "follow (about") {
			break
		}
		next, _ := strconv.Atoi(m[len(m)-1][1])
		if next <= from {
			t.Fatalf("continuation %d does not move on from %d", next, from)
		}
		from = next
	}
	if len(seen) != 40 {
		t.Errorf("%d snapshots showed %d of 40 paragraphs", pages+1, len(seen))
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("paragraph %s shown %d times", k, n)
		}
	}
	_, err := Snapshot(ctx, p, Options{From: 100000})
	var ae *cdpclient.ArgError
	if !errors.As(err, &ae) {
		t.Errorf("from past the end: %v, want an argument error", err)
	}
}

// Text in template-stamped components, slots, nested shadow roots, same- and
// cross-site frames and SVG is read; form values are shown.
func TestReadingShadowFramesSVG(t *testing.T) {
	t.Parallel()
	p := newTestPage(t)
	ctx := testContext(t)
	if err := outcome(p.Navigate(ctx, cdptest.Site.URL("/reading/shadow.html"), cdpclient.WaitLoad)); err != nil {
		t.Fatal(err)
	}
	var s string
	for range 50 { // the cross-site frame loads after the page
		var err error
		if s, err = Snapshot(ctx, p, Options{}); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(s, "fishing fleet") {
			break
		}
	}
	want := []string{
		"_[:]Light text before the components.",
		"[:]### The lighthouse card", "_[:]Stamped from a template: slotted words about the keeper", "<button>Card action</button>",
		"_[:]Stamped from a template: second slotted words about the ferry",
		"[:]## Shadow section", "_[:]Open shadow text about the harbour wall.", "_[:]Nested shadow text about the tide clock.",
		"Monday tide Tuesday tide", "_[:]Chart of the tides this week.",
		`<input value="Port Quarry">Town</input>`, `<textarea value="Notes about the pier">Notes</textarea>`, "<select value=Ketch",
		`_[:]iframe "Same-site story":`, "_[:]Framed paragraph about the harbour master.",
		`_[:]iframe "Cross-site story":`, "_[:]Cross-site paragraph about the fishing fleet.",
		"_[:]Light text after the frames.",
	}
	last := -1
	for _, w := range want {
		i := strings.Index(s, w)
		if i < 0 {
			t.Errorf("snapshot lacks %q", w)
			continue
		}
		if i < last {
			t.Errorf("%q is out of document order", w)
		}
		last = i
	}
	wantNotIn(t, s, "Icon title", "Untitled\n_[:]Stamped from a template: slotted", "Harbour 9,")
	// A long list of options shows its first; the select's own snapshot shows all.
	m := regexp.MustCompile(`(\d+)\[:\]<select value="Harbour 1" options="Harbour 1,[^"]*Harbour 8,…\+22: snapshot \{ref: (\d+)\}">Harbour</select>`).FindStringSubmatch(s)
	if m == nil || m[1] != m[2] {
		t.Fatalf("long select: %v", m)
	}
	all, err := Snapshot(ctx, p, Options{Scope: cdpclient.Target{Ref: m[1]}})
	if err != nil || !strings.Contains(all, "Harbour 29,Harbour 30") {
		t.Errorf("the select's snapshot: %v\n%s", err, all)
	}
}

// Hidden is hidden and visible is there, as a person sees the page.
func TestReadingHiddenAndCollapsed(t *testing.T) {
	t.Parallel()
	_, s := snapshotOf(t, "/reading/hidden.html", Options{})
	wantIn(t, s, "_[:]Visible paragraph one.", "_[:]Visible paragraph two.",
		"_[:]Decorative but visible text.", // aria-hidden, but on the screen
		"<summary expanded=false>Closed details summary</summary>", "<summary>Open details summary</summary>",
		"_[:]Open details body text.", "_[:]First slide text.", "<a>First slide link</a>")
	wantNotIn(t, s, "Display none", "Visibility hidden", "Opacity zero", "Screen reader only", "Collapsed panel",
		"Hidden attribute", "Until found", "Closed details body", "Second slide", "Third slide")
}

// Tables keep their rows in reading order; a long one shows its first rows and
// its last, and the continuation shows the rest. A layout table is read as text.
func TestReadingTables(t *testing.T) {
	t.Parallel()
	p, s := snapshotOf(t, "/reading/tables.html", Options{})
	wantIn(t, s, "[:]# Quarterly orders", "_[:]Orders by customer", "_[:]Customer | Open | Closed", "_[:]Soylent | ",
		"_[:]Order | Customer | Date | Amount", "_[:]ORD-1001 | ", "_[:]ORD-1300 | ", "_[:]End of the report")
	m := regexp.MustCompile(`(?m)^_\[:\]… (\d+) more rows in this table: snapshot \{from: (\d+)\}$`).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("the ledger is not shortened:\n%s", s)
	}
	shown := strings.Count(s, "_[:]ORD-")
	if n, _ := strconv.Atoi(m[1]); shown+n != 300 {
		t.Errorf("%d rows shown + %d counted != 300", shown, n)
	}
	from, _ := strconv.Atoi(m[2])
	rest, err := Snapshot(testContext(t), p, Options{From: from})
	if err != nil {
		t.Fatal(err)
	}
	first := strings.Split(rest, "\n")[1]
	if !strings.HasPrefix(first, fmt.Sprintf("_[:]ORD-%d | ", 1000+shown)) {
		t.Errorf("the continuation starts with %q, want row %d", first, 1000+shown)
	}
}

// The bench's hand-made pages keep their costs: the article whole in about
// 3,500 tokens, the 1,000-item page summarised (first and last items, the
// 300 buttons reachable) in far less than 8,000.
func TestReadingBenchPages(t *testing.T) {
	t.Parallel()
	tests := []struct {
		path   string
		tokens int
		want   []string
	}{
		{"/bench/login.html", 300, []string{"Username", "Password", "Sign in"}},
		{"/bench/dashboard.html", 2300, []string{"INV-1001", "INV-1050"}},
		{"/bench/article.html", 3700, []string{"City council passes budget", "Terms"}},
		{"/bench/big.html", 4000, []string{"Item 1:", "Item 1000:", "Action 1<", "Action 300<", "snapshot {from: ", "buttons in this group: snapshot {ref: "}},
	}
	for _, tc := range tests {
		_, s := snapshotOf(t, tc.path, Options{})
		wantIn(t, s, tc.want...)
		if got := snapshot.Estimate(s); got > tc.tokens {
			t.Errorf("%s costs %d estimated tokens, want ≤ %d", tc.path, got, tc.tokens)
		}
	}
}
