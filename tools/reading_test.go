package tools

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Reading a page through MCP: the default snapshot summarises the chrome and a
// summary's ref opens it; a cut snapshot continues with from; getContent gives
// the article as Markdown (by default) and as text, and the HTML when asked.
func TestReadingThroughMCP(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/reading/article.html")}))
	r := callTool(t, c, "snapshot", nil)
	mustOK(t, r)
	m := regexp.MustCompile(`… \d+ more \w+[^\n]* in this header: snapshot \{ref: (\d+)\}`).FindStringSubmatch(r.text)
	if m == nil || !strings.Contains(r.text, "Paragraph 8.4:") {
		t.Fatalf("default snapshot:\n%s", r.text)
	}
	menu := callTool(t, c, "snapshot", map[string]any{"ref": m[1]})
	if menu.isError || !strings.Contains(menu.text, "<a>Opinion topic 15</a>") {
		t.Errorf("snapshot of the summarised header:\n%s", menu.text)
	}

	cut := callTool(t, c, "snapshot", map[string]any{"maxTokens": 1500})
	f := regexp.MustCompile(`(?m)follow \(about \d+ tokens\): snapshot \{from: (\d+)\}$`).FindStringSubmatch(cut.text)
	if cut.isError || f == nil {
		t.Fatalf("snapshot with maxTokens 1500 does not say where it goes on:\n%s", cut.text)
	}
	from, _ := strconv.Atoi(f[1])
	next := callTool(t, c, "snapshot", map[string]any{"maxTokens": 1500, "from": from})
	if next.isError || !strings.Contains(strings.SplitN(next.text, "\n", 2)[0], "from line "+f[1]) {
		t.Errorf("continuation:\n%s", next.text)
	}
	if r := callTool(t, c, "snapshot", map[string]any{"from": -3}); !r.isError {
		t.Errorf("from -3 accepted: %s", r.text)
	}
	if r := callTool(t, c, "snapshot", map[string]any{"maxTokens": -1}); r.isError || !strings.Contains(r.text, "<a>Footer 5.11</a>") {
		t.Errorf("maxTokens -1 does not show everything")
	}

	md := callTool(t, c, "getContent", map[string]any{"format": "markdown"})
	mustOK(t, md)
	for _, w := range []string{"# The harbour at the edge of the valley\n", "## Part 8:", "landing 1](" + site.URL("/place/1") + ")",
		"> Quoted: the harbour never sleeps", "- Second point about the orchard in winter.", "| Monday  | 06:12 | 12:30 |"} {
		if !strings.Contains(md.text, w) {
			t.Errorf("markdown lacks %q", w)
		}
	}
	for _, bad := range []string{"Food topic 3", "Footer 2.2", "Related story number"} {
		if strings.Contains(md.text, bad) {
			t.Errorf("markdown has chrome %q", bad)
		}
	}
	// Markdown is what getContent answers unless asked otherwise; the HTML is
	// one argument away.
	if def := callTool(t, c, "getContent", nil); def.isError || def.text != md.text {
		t.Errorf("getContent {} is not the Markdown:\n%.300s", def.text)
	}
	if html := callTool(t, c, "getContent", map[string]any{"format": "html"}); html.isError || !strings.Contains(html.text, "<html lang=\"en\"><head>") || !strings.Contains(html.text, "<h1") {
		t.Errorf("getContent {format: html}:\n%.300s", html.text)
	}
	text := callTool(t, c, "getContent", map[string]any{"format": "text"})
	if text.isError || !strings.Contains(text.text, "\nThe harbour at the edge of the valley\n") || !strings.Contains(text.text, "Paragraph 8.4:") || strings.Contains(text.text, "](") {
		t.Errorf("text:\n%.300s", text.text)
	}
	part := callTool(t, c, "getContent", map[string]any{"format": "markdown", "selector": "footer"})
	if part.isError || !strings.Contains(part.text, "### Column 0") || !strings.Contains(part.text, "[Terms](") {
		t.Errorf("markdown of the footer:\n%s", part.text)
	}
	if r := callTool(t, c, "getContent", map[string]any{"format": "pdf"}); !r.isError {
		t.Errorf("format pdf accepted: %s", r.text)
	}
}

// getContent is what a person sees, read by the snapshot's own rule: rows
// that are display:none, hidden or visibility:hidden, a zero-size box and
// aria-hidden decoration are in neither; the words of separate boxes stay
// apart; the page's nav, header and footer are left out of its content
// until asked for, and even then nothing hidden comes with them.
func TestGetContentIsWhatAPersonSees(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/reading/rows.html")}))
	hidden := []string{"SH-1002", "Archived row", "SH-1003", "Hidden row", "SH-1004", "Invisible row", "zero-size note", "★", "➜"}
	seen := []string{"Region", "SH-1001", "Lisbon", "SH-1005", "In transit", "kept for audits"}
	snap := callTool(t, c, "snapshot", nil)
	md := callTool(t, c, "getContent", nil)
	text := callTool(t, c, "getContent", map[string]any{"format": "text"})
	whole := callTool(t, c, "getContent", map[string]any{"whole": true})
	for _, r := range []result{snap, md, text, whole} {
		mustOK(t, r)
		wantIn(t, r, seen...)
		for _, h := range hidden {
			if strings.Contains(r.text, h) {
				t.Errorf("%q is not shown, yet read:\n%s", h, r.text)
			}
		}
	}
	for _, r := range []result{md, text, whole} {
		wantIn(t, r, "Region All Europe Americas Apply")
	}
	for _, chrome := range []string{"Billing", "Privacy"} {
		if strings.Contains(md.text, chrome) || strings.Contains(text.text, chrome) {
			t.Errorf("the page's content holds its nav or footer (%q):\n%s", chrome, md.text)
		}
	}
	wantIn(t, whole, "[Billing](", "[Privacy](")
	if r := callTool(t, c, "getContent", map[string]any{"selector": "form", "format": "text"}); strings.TrimSpace(r.text) != "Region All Europe Americas Apply" {
		t.Errorf("the filter form as text: %q", r.text)
	}
}
