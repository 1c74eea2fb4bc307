package snapshot

// Span is a range of lines, [From, To).
type Span struct {
	From, To int
}

// Len is the number of lines in the span.
func (s Span) Len() int { return s.To - s.From }

func (s Span) contains(i int) bool { return i >= s.From && i < s.To }

// Group is a run of lines that all come from one container on the page, which a
// snapshot may summarise: chrome around the reading text (a menu, a header or
// footer, a sidebar, a list of links) or a long list or table.
type Group struct {
	Span
	// Ref is the container's ref: a snapshot scoped to it shows its lines.
	Ref int
	// Kind says what the container is: "menu", "header", "footer", "sidebar",
	// "links", "related list", "share bar", "comments", "banner", "tags",
	// "search"; "list" and "table" are content, not chrome.
	Kind string
}

// Chrome reports whether the group is around the reading text rather than part
// of it.
func (g Group) Chrome() bool { return g.Kind != "list" && g.Kind != "table" }

// Model is a page's lines in document order, with what fitting them into a
// budget needs to know: where the main text is and which runs of lines are
// chrome or long lists.
type Model struct {
	Lines []string
	// Main holds the page's main text (the article); zero when the page model
	// found none, in which case every line counts as main text.
	Main Span
	// Groups may nest; they need not be sorted.
	Groups []Group
	// View holds the lines on screen, in order: fitting keeps them.
	View []Span
	// Partial says the page model stopped before the end of the page: the
	// lines are what it read in its time, and a continuation reads on.
	Partial bool
}

// inView reports whether line i is on screen.
func (m Model) inView(i int) bool {
	for _, v := range m.View {
		if v.contains(i) {
			return true
		}
	}
	return false
}

// Splice inserts sub's lines after line at (a frame's content after its marker
// line), moving this model's spans and adding sub's groups. sub's main text is
// not the page's: its lines count as the page's main text only when they fall
// inside it.
func (m *Model) Splice(at int, sub Model) {
	n := len(sub.Lines)
	if n == 0 {
		return
	}
	at = min(max(at, 0), len(m.Lines))
	m.Lines = append(m.Lines[:at:at], append(sub.Lines, m.Lines[at:]...)...)
	move := func(s *Span) {
		switch {
		case s.From >= at:
			s.From += n
			s.To += n
		case s.To >= at:
			s.To += n
		}
	}
	if m.Main.Len() > 0 {
		move(&m.Main)
	}
	for i := range m.Groups {
		move(&m.Groups[i].Span)
	}
	for i := range m.View {
		move(&m.View[i])
	}
	for _, g := range sub.Groups {
		g.From += at
		g.To += at
		m.Groups = append(m.Groups, g)
	}
}
