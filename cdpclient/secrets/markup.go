package secrets

import (
	"bytes"
	"strings"
)

// markup reports whether b[a:end) is a word of cdpmcp's own markup: a tag
// name, an attribute name or the type, role or for an attribute names in a
// snapshot line's element tag (N[:]<input type=password filled>), or a key
// of its JSON answers ("delta":), and one of cdpmcp's words there. A page
// decides none of those words: element lines name standard tags and ARIA
// roles only, and a page's own text between them is not markup. tags reads
// b for the tag a is in.
func markup(b []byte, a, end int, tags *tagCursor) bool {
	word := strings.ToLower(string(b[a:end]))
	if !markupWords[word] {
		return false // most values: no need to look where they are
	}
	if a > 0 && end < len(b) && b[a-1] == '"' && b[end] == '"' && end+1 < len(b) && b[end+1] == ':' {
		return answerKeys[word]
	}
	if a >= 2 && b[a-2] == '<' && b[a-1] == '/' && end < len(b) && b[end] == '>' {
		return tagNames[word]
	}
	open, in := tags.tagAt(b, a)
	if !in || end < len(b) && b[end] != ' ' && b[end] != '>' && b[end] != '=' {
		return false
	}
	switch b[a-1] {
	case '<':
		return tagNames[word]
	case ' ':
		return attrNames[word]
	case '=':
		attr := b[open : a-1]
		attr = attr[bytes.LastIndexByte(attr, ' ')+1:]
		switch string(attr) {
		case "type", "for":
			return inputTypes[word] || tagNames[word]
		case "role":
			return roles[word]
		}
	}
	return false
}

// tagCursor finds the element tag a place in a text is in: the last
// "[:]<" on its line before it, when no '>' outside quotes closes it
// before the place, and the place is not inside quotes. Asked of places
// in order, it reads each byte of the text once, however many there are
// (a page may echo a value thousands of times on one line of an answer);
// asked of an earlier place, it reads the text again from its start.
type tagCursor struct {
	b      []byte
	at     int  // b[:at] is read
	ls     int  // where the line holding at starts
	open   int  // the '<' of the line's last "[:]<" in b[:at], or -1
	quoted bool // b[open:at] has an odd number of '"'
	closed bool // b[open:at] has a '>' outside quotes
}

// tagAt returns where the tag a is in opens, and whether a is in one.
func (c *tagCursor) tagAt(b []byte, a int) (open int, in bool) {
	if len(c.b) == 0 || len(c.b) != len(b) || &c.b[0] != &b[0] || a < c.at {
		*c = tagCursor{b: b, open: -1}
	}
	seg := b[c.at:a]
	if nl := bytes.LastIndexByte(seg, '\n'); nl >= 0 {
		c.ls, c.open = c.at+nl+1, -1
	}
	// An opening that began in what was read before and ends in seg
	// counts now.
	from := max(c.ls, c.at-len(tagOpen)+1)
	scan := c.at
	if k := bytes.LastIndex(b[from:a], tagOpen); k >= 0 {
		c.open = from + k + len(tagOpen) - 1
		c.quoted, c.closed = false, false
		scan = c.open
	}
	for i := scan; c.open >= 0 && !c.closed && i < a; i++ {
		switch b[i] {
		case '"':
			c.quoted = !c.quoted
		case '>':
			c.closed = !c.quoted // past the tag: the element's name
		}
	}
	c.at = a
	return c.open, c.open >= 0 && !c.closed && !c.quoted
}

// tagOpen begins an element line's tag: 12[:]<button>.
var tagOpen = []byte("[:]<")

func set(words string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(words) {
		out[w] = true
	}
	return out
}

// The words of cdpmcp's markup (cdpclient/js/lines.js, feedback's JSON).
var (
	tagNames = set(`a abbr address area article aside audio b bdi bdo blockquote body br button canvas caption cite code
		col colgroup data datalist dd del details dfn dialog div dl dt em embed fieldset figcaption figure footer form
		h1 h2 h3 h4 h5 h6 header hgroup hr html i iframe img input ins kbd label legend li main map mark menu meter nav
		object ol optgroup option output p picture pre progress q rp rt ruby s samp search section select slot small
		source span strong sub summary sup svg table tbody td template textarea tfoot th thead time tr track u ul var
		video wbr`)
	attrNames = set(`role type checked filled value placeholder options multiple href contenteditable draggable for
		expanded clickable disabled required readonly pressed selected current invalid covered`)
	inputTypes = set(`text password email search tel url number range date time datetime-local month week color
		checkbox radio file submit button reset image hidden`)
	roles = set(`alert alertdialog application article banner blockquote button caption cell checkbox code columnheader
		combobox complementary contentinfo definition deletion dialog document emphasis feed figure form generic grid
		gridcell group heading img insertion link list listbox listitem log main mark marquee math menu menubar menuitem
		menuitemcheckbox menuitemradio meter navigation none note option paragraph presentation progressbar radio
		radiogroup region row rowgroup rowheader scrollbar search searchbox separator slider spinbutton status strong
		subscript superscript switch tab table tablist tabpanel term textbox time timer toolbar tooltip tree treegrid
		treeitem`)
	answerKeys = set(`act ref ok code msg delta errors net netmore dialog opened downloads timing hint url title status
		page value text attrs removed added flash more pending name size mime path state type closed`)
	// markupWords are all of them: a value that is none of them is
	// never markup, wherever it is.
	markupWords = union(tagNames, attrNames, inputTypes, roles, answerKeys)
)

func union(sets ...map[string]bool) map[string]bool {
	out := map[string]bool{}
	for _, s := range sets {
		for w := range s {
			out[w] = true
		}
	}
	return out
}
