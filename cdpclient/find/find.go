package find

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/pagemodel"
	"github.com/cdpmcp/cdpmcp/cdpclient/snapshot"
	"github.com/mafredri/cdp"
)

// maxMatches bounds the lines one Find answers.
const maxMatches = 30

// Query says what Find looks for: a text anywhere in a line of the page
// model, or an element by role and accessible name (as a person names it:
// "button Save"), or both. Matching ignores case; names match in part.
type Query struct {
	Text string
	Role string
	Name string
	// Box adds each element's box in CSS pixels of the viewport (as a
	// screenshot shows it): [x,y,w,h].
	Box bool
}

// Find answers the lines of p's page model (the snapshot's format, frames
// and shadow roots included) that match, with the heading they sit under,
// without the rest of the snapshot. Their refs work as a snapshot's do.
func Find(ctx context.Context, p *cdpclient.Page, q Query) (string, error) {
	if q.Text == "" && q.Role == "" && q.Name == "" {
		return "", cdpclient.ArgErrorf(`give text, or role and name, e.g. {"role":"button","name":"Save"}`, "nothing to find")
	}
	d := p.Door()
	var out string
	_, err := d.Run(ctx, cdpclient.ModeRead, func(ctx context.Context, _ *cdp.Client) error {
		lines, err := pagemodel.Lines(ctx, p)
		if err != nil {
			return err
		}
		matches, heads, total := findLines(lines, q)
		if q.Text != "" {
			refText(ctx, d, matches, q.Text)
		}
		var b strings.Builder
		switch total {
		case 0:
			fmt.Fprintf(&b, "no matches for %s on %s", q.describe(), p.ID)
		case 1:
			fmt.Fprintf(&b, "1 match for %s", q.describe())
		default:
			fmt.Fprintf(&b, "%d matches for %s", total, q.describe())
		}
		last := ""
		for i, line := range matches {
			if h := heads[i]; h != "" && h != last {
				b.WriteString("\n" + h)
				last = h
			}
			b.WriteString("\n" + line)
			if q.Box {
				b.WriteString(boxNote(ctx, p, line))
			}
		}
		if total > len(matches) {
			fmt.Fprintf(&b, "\n(%d more: ask for less, e.g. with role and name)", total-len(matches))
		}
		if total == 0 {
			b.WriteString("\n(it may be below the fold of a lazy page, or named otherwise: take a snapshot)")
		}
		out = b.String()
		return nil
	})
	return out, err
}

func (q Query) describe() string {
	var parts []string
	if q.Role != "" {
		parts = append(parts, "role "+q.Role)
	}
	if q.Name != "" {
		parts = append(parts, fmt.Sprintf("name %q", q.Name))
	}
	if q.Text != "" {
		parts = append(parts, fmt.Sprintf("text %q", q.Text))
	}
	return strings.Join(parts, ", ")
}

// elementLine is a page-model line with an element: ref, tag, attributes, name.
var elementLine = regexp.MustCompile(`^(\d+)\[:\]<([a-zA-Z][\w-]*)([^>]*)>(.*?)(?:</([a-zA-Z][\w-]*)>|$)`)

// findLines returns the matching lines (at most maxMatches), the heading
// each sits under, and how many matched in all.
func findLines(lines []string, q Query) (matches, heads []string, total int) {
	head := ""
	text, name, role := strings.ToLower(q.Text), strings.ToLower(q.Name), strings.ToLower(q.Role)
	for _, line := range lines {
		_, isHead := snapshot.Heading(line)
		ok := true
		if text != "" {
			_, rest, _ := strings.Cut(line, "[:]")
			ok = strings.Contains(strings.ToLower(rest), text)
		}
		if ok && (role != "" || name != "") {
			r, n := lineRole(line)
			ok = (role == "" || r == role) && (name == "" || strings.Contains(strings.ToLower(n), name))
		}
		if ok {
			total++
			if len(matches) < maxMatches {
				h := head
				if isHead {
					h = ""
				}
				matches, heads = append(matches, line), append(heads, h)
			}
		}
		if isHead {
			head = line
		}
	}
	return matches, heads, total
}

// lineRole is the ARIA role and the name of a page-model line: its element's
// (explicit role, else the one its tag and type imply), or "heading" for a
// heading line.
func lineRole(line string) (role, name string) {
	if t, ok := snapshot.Heading(line); ok {
		return "heading", t
	}
	if strings.HasPrefix(line, "_[:]") {
		return "", ""
	}
	m := elementLine.FindStringSubmatch(line)
	if m == nil {
		return "", ""
	}
	tag, attrs, name := strings.ToLower(m[2]), m[3], m[4]
	if r := attrValue(attrs, "role"); r != "" {
		return strings.ToLower(r), name
	}
	switch tag {
	case "a":
		return "link", name
	case "button", "summary":
		return "button", name
	case "select":
		if strings.Contains(attrs, "multiple") {
			return "listbox", name
		}
		return "combobox", name
	case "textarea":
		return "textbox", name
	case "img":
		return "img", name
	case "option":
		return "option", name
	case "input":
		switch strings.ToLower(attrValue(attrs, "type")) {
		case "checkbox":
			return "checkbox", name
		case "radio":
			return "radio", name
		case "button", "submit", "reset", "image":
			return "button", name
		case "range":
			return "slider", name
		case "number":
			return "spinbutton", name
		case "search":
			return "searchbox", name
		}
		return "textbox", name
	}
	return tag, name
}

var attrPattern = regexp.MustCompile(`([\w-]+)=("[^"]*"|'[^']*'|[^\s>]+)`)

// attrValue reads attribute name from a line's attribute text.
func attrValue(attrs, name string) string {
	for _, m := range attrPattern.FindAllStringSubmatch(attrs, -1) {
		if strings.EqualFold(m[1], name) {
			return strings.Trim(m[2], `"'`)
		}
	}
	return ""
}

// boxNote is " [box=x,y,w,h]" for a line's element, in CSS pixels of the
// viewport, saying when it is out of view; empty for a line without one.
func boxNote(ctx context.Context, p *cdpclient.Page, line string) string {
	m := elementLine.FindStringSubmatch(line)
	if m == nil {
		return ""
	}
	e, err := p.Resolve(ctx, cdpclient.Target{Ref: m[1]})
	if err != nil {
		return ""
	}
	r, err := e.Box(ctx)
	if err != nil {
		return " [no box: not rendered]"
	}
	note := fmt.Sprintf(" [box=%s,%s,%s,%s]", num(r.X), num(r.Y), num(r.W), num(r.H))
	if vw, vh, err := p.Door().Frames().Viewport(ctx); err == nil && (r.X+r.W <= 0 || r.Y+r.H <= 0 || r.X >= vw || r.Y >= vh) {
		note += " (out of view: scroll to it first)"
	}
	return note
}

func num(f float64) string { return strconv.FormatFloat(math.Round(f), 'f', -1, 64) }
