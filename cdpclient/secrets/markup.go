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
// roles only, and a page's own text between them is not markup.
func markup(b []byte, a, end int) bool {
	word := strings.ToLower(string(b[a:end]))
	if a > 0 && end < len(b) && b[a-1] == '"' && b[end] == '"' && end+1 < len(b) && b[end+1] == ':' {
		return answerKeys[word]
	}
	if a >= 2 && b[a-2] == '<' && b[a-1] == '/' && end < len(b) && b[end] == '>' {
		return tagNames[word]
	}
	ls := bytes.LastIndexByte(b[:a], '\n') + 1
	open := bytes.LastIndex(b[ls:a], []byte("[:]<"))
	if open < 0 {
		return false
	}
	open += ls + len("[:]")
	quoted := false
	for _, c := range b[open:a] {
		switch c {
		case '"':
			quoted = !quoted
		case '>':
			if !quoted {
				return false // past the tag: the element's name
			}
		}
	}
	if quoted || end < len(b) && b[end] != ' ' && b[end] != '>' && b[end] != '=' {
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
)
