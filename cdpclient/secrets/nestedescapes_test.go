package secrets

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// A value written all in escapes and then escaped again (evaluate's answer
// of a script that wrote '\\u0054…', which the answer's JSON escapes once
// more; an HTML page showing entities as text, &amp;#84;…) holds no anchor
// and no run of escapes a character or two apart (the next layer's letters
// stand between them): it is found all the same.
func TestEscapesEscapedAgain(t *testing.T) {
	t.Parallel()
	const s = "Tr0ub4dor&3xyz"
	each := func(format string) string {
		var b strings.Builder
		for _, r := range s {
			fmt.Fprintf(&b, format, r)
		}
		return b.String()
	}
	quote := func(v string) string { j, _ := json.Marshal(v); return string(j) }
	for _, c := range []struct{ name, text string }{
		{`\uXXXX in a JSON string`, quote(each(`\u%04x`))},
		{`\uXXXX in a JSON string in a JSON string`, quote(quote(each(`\u%04x`)))},
		{`\xXX in a JSON string`, "result: " + quote(each(`\x%02x`)) + " ok"},
		{`\u{X} in a JSON string`, quote(each(`\u{%x}`))},
		{"&#N; as HTML text", "<pre>" + strings.ReplaceAll(each("&#%d;"), "&", "&amp;") + "</pre>"},
		{"&#xH; as HTML text", "<pre>" + strings.ReplaceAll(each("&#x%x;"), "&", "&amp;") + "</pre>"},
		{"%XX percent-encoded again in a URL", "https://example.com/?q=" + url.QueryEscape(each("%%%02X")) + "&n=1"},
	} {
		r := New()
		r.Enter(s, Entry{})
		got := r.Redact(c.text)
		if !strings.Contains(got, Mask) {
			t.Errorf("%s: %s was not masked", c.name, c.text)
		}
	}
}
