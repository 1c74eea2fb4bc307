// Package secrettest holds what tests of secrets share: a table of secrets
// (letters, every printable ASCII punctuation mark, spaces, non-ASCII,
// lengths 4 to 64) and the encodings a secret takes where it shows up again
// (written here independently of the redactor, as browsers, encoders and
// converters write them), to search every answer and file for. Only tests
// import it.
package secrettest

import (
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"math/rand/v2"
	"net/url"
	"strings"
	"unicode/utf8"
)

// FormEncode is application/x-www-form-urlencoded as browsers write it
// (WHATWG URL): *-._ and letters and digits kept, space as +, the rest %XX.
func FormEncode(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '*', c == '-', c == '.', c == '_':
			b.WriteByte(c)
		case c == ' ':
			b.WriteByte('+')
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// uriComponent is JavaScript's encodeURIComponent (lower-case hex, as some
// servers echo it).
func uriComponent(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02x", c)
	}
	return b.String()
}

// latin1Form is form data of a page in windows-1252: é as %E9, characters
// the charset lacks as &#N; percent-encoded.
func latin1Form(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x80:
			b.WriteString(FormEncode(string(r)))
		case r <= 0xff:
			fmt.Fprintf(&b, "%%%02X", r)
		default:
			b.WriteString(FormEncode(fmt.Sprintf("&#%d;", r)))
		}
	}
	return b.String()
}

func jsonInner(s string, escapeHTML bool) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(escapeHTML)
	_ = enc.Encode(s)
	out := strings.TrimSuffix(b.String(), "\n")
	return out[1 : len(out)-1]
}

// asciiJSON writes every non-ASCII character as \uXXXX (surrogate pairs),
// upper or lower hex.
func asciiJSON(s string, upper bool) string {
	var b strings.Builder
	format := `\u%04x`
	if upper {
		format = `\u%04X`
	}
	for _, r := range jsonInner(s, false) {
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case r > 0xffff:
			r -= 0x10000
			fmt.Fprintf(&b, format+format, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		default:
			fmt.Fprintf(&b, format, r)
		}
	}
	return b.String()
}

// jsEscapes writes every character as a JavaScript escape.
func jsEscapes(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r > 0xffff:
			fmt.Fprintf(&b, `\u{%x}`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

// markdownEscape puts a backslash before every ASCII punctuation mark, as
// an HTML-to-Markdown converter may.
func markdownEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 && strings.ContainsRune("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

var (
	innerHTMLText = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\u00a0", "&nbsp;")
	innerHTMLAttr = strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;", ">", "&gt;", "\u00a0", "&nbsp;")
)

func numericEntities(s string, hex bool) string {
	var b strings.Builder
	for _, r := range s {
		if hex {
			fmt.Fprintf(&b, "&#x%X;", r)
		} else {
			fmt.Fprintf(&b, "&#%d;", r)
		}
	}
	return b.String()
}

// innerText folds runs of white space to one space, as a page's text does.
func innerText(s string) string { return strings.Join(strings.Fields(s), " ") }

// Encoding is one way a secret is written where it shows up again.
type Encoding struct {
	Name string
	Enc  func(string) string
}

// Encodings are every way a test expects a secret to be found.
var Encodings = []Encoding{
	{"raw", func(s string) string { return s }},
	{"upper case (text-transform)", strings.ToUpper},
	{"white space folded (innerText)", innerText},
	{"form (browser)", FormEncode},
	{"form lower-case hex", func(s string) string { return strings.ToLower(FormEncode(s)) }},
	{"url.QueryEscape", url.QueryEscape},
	{"url.PathEscape", url.PathEscape},
	{"encodeURIComponent", uriComponent},
	{"form of a windows-1252 page", latin1Form},
	{"JSON", func(s string) string { return jsonInner(s, false) }},
	{"JSON, HTML-safe (Go)", func(s string) string { return jsonInner(s, true) }},
	{"JSON, ASCII", func(s string) string { return asciiJSON(s, false) }},
	{"JSON, ASCII upper hex", func(s string) string { return asciiJSON(s, true) }},
	{"JSON in JSON", func(s string) string { return jsonInner(jsonInner(s, true), true) }},
	{"JSON in JSON in JSON", func(s string) string { return jsonInner(jsonInner(jsonInner(s, false), false), false) }},
	{"JavaScript escapes", jsEscapes},
	{"HTML text (innerHTML)", innerHTMLText.Replace},
	{"HTML attribute (outerHTML)", innerHTMLAttr.Replace},
	{"html.EscapeString", html.EscapeString},
	{"numeric references", func(s string) string { return numericEntities(s, false) }},
	{"hex references", func(s string) string { return numericEntities(s, true) }},
	{"Markdown", markdownEscape},
	{"Markdown in JSON", func(s string) string { return jsonInner(markdownEscape(s), false) }},
	{"form in JSON (HAR, trace)", func(s string) string { return jsonInner("pw="+FormEncode(s), false) }},
	{"form in JSON in JSON", func(s string) string { return jsonInner(jsonInner("pw="+FormEncode(s), false), false) }},
	{"HTML in JSON", func(s string) string { return jsonInner(innerHTMLText.Replace(s), true) }},
	{"URL in an HTML attribute", func(s string) string { return innerHTMLAttr.Replace("/login?pw=" + FormEncode(s) + "&x=1") }},
	{"base64 of credentials", func(s string) string { return "Basic " + base64.StdEncoding.EncodeToString([]byte("user:"+s)) }},
	{"base64url, no padding", func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }},
	{"base64 in JSON", func(s string) string { return jsonInner(base64.StdEncoding.EncodeToString([]byte("x"+s)), false) }},
	{"base64 form-encoded", func(s string) string { return FormEncode(base64.StdEncoding.EncodeToString([]byte(s + "?"))) }},
	{"base64 of base64", func(s string) string { return b64(b64(s)) }},
	{"base64 of JSON of base64", func(s string) string { return b64(`{"t":"` + b64(s) + `"}`) }},
	{"base64 after a path of its alphabet", func(s string) string { return "/api/v1/" + b64("\x00"+s) }},
	{"btoa after a letter ('Q'+btoa('x'+s))", func(s string) string { return "Q" + b64("x"+s) }},
	{"base64 of UTF-16LE", func(s string) string { return b64(utf16le(s)) }},
	{"hex", func(s string) string { return hex.EncodeToString([]byte(s)) }},
	{"hex upper case after a digit", func(s string) string { return "7" + strings.ToUpper(hex.EncodeToString([]byte(s))) }},
	{"base32", func(s string) string { return base32.StdEncoding.EncodeToString([]byte(s)) }},
	{"quoted-printable", quotedPrintable},
	{"CSS escapes", cssEscapes},
	{"octal escapes", octalEscapes},
	{"zero-width characters between the letters", zeroWidth},
	{"fullwidth letters", fullwidth},
}

const punctuation = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

// Secrets is the table the tests walk: letters, every printable ASCII
// punctuation mark, spaces, non-ASCII, lengths 4 to 64.
func Secrets() []string {
	rng := rand.New(rand.NewPCG(20, 26))
	pick := func(set string, n int) string {
		rs := []rune(set)
		var b strings.Builder
		for range n {
			b.WriteRune(rs[rng.IntN(len(rs))])
		}
		return b.String()
	}
	letters := "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	out := []string{
		"abcd", "Hunter2!", "correct horse battery staple",
		punctuation,
		"pw " + punctuation[:16] + " x" + punctuation[16:],
		"~*_!", "a~b*c_d!e", "p@ss w0rd", "  two  spaces  ",
		"mötley-é", "中文密码", "pass😀word", "é中😀!",
		"ab%41cd", `x\y&amp;z`, "a+b c", "<script>&nbsp;",
	}
	for _, n := range []int{4, 7, 12, 20, 33, 48, 64} {
		out = append(out, pick(letters, n), pick(letters+punctuation+" ", n), pick(letters+"é中😀 ~*", n))
	}
	for _, s := range out {
		if n := utf8.RuneCountInString(s); n < 4 || n > 64 {
			panic(fmt.Sprintf("test secret %q has %d characters", s, n))
		}
	}
	return out
}

// Leaks says in which encodings out holds secret (its core, without the
// white space at its ends, which a page's text drops).
func Leaks(out, secret string) []string {
	core := strings.TrimSpace(secret)
	var found []string
	for _, e := range Encodings {
		if enc := e.Enc(core); enc != "" && strings.Contains(out, enc) {
			found = append(found, e.Name)
		}
	}
	return found
}
