package playwright

import (
	"bytes"
	"encoding/json"
	"regexp"
	"sort"
	"strings"

	"github.com/cdpmcp/cdpmcp/learned"
)

// How the test's JavaScript is written: strings, values with their params,
// patterns for texts a page shows.

var paramRef = regexp.MustCompile(`\{\{([a-z][a-z0-9_]*)\}\}`)

// value is a value's JavaScript: a string, its params read from params.
func value(v string) string {
	var parts []string
	last := 0
	for _, m := range paramRef.FindAllStringSubmatchIndex(v, -1) {
		if m[0] > last {
			parts = append(parts, js(v[last:m[0]]))
		}
		parts = append(parts, "params."+v[m[2]:m[3]])
		last = m[1]
	}
	if last < len(v) || len(parts) == 0 {
		parts = append(parts, js(v[last:]))
	}
	return strings.Join(parts, " + ")
}

var digitRun = regexp.MustCompile(`\d+`)

// textPattern is a regular expression for a text the page shows: case and
// white space as they come, a number matching any, params as given.
func textPattern(t string) string {
	var parts []string
	last := 0
	lit := func(s string) {
		if s != "" {
			parts = append(parts, js(digitRun.ReplaceAllString(regexp.QuoteMeta(s), `\d+`)))
		}
	}
	for _, m := range paramRef.FindAllStringSubmatchIndex(t, -1) {
		lit(t[last:m[0]])
		parts = append(parts, "esc(params."+t[m[2]:m[3]]+")")
		last = m[1]
	}
	lit(t[last:])
	if len(parts) == 1 && !strings.Contains(parts[0], "params.") {
		var s string
		_ = json.Unmarshal([]byte(parts[0]), &s)
		return regexLiteral(s) + "i"
	}
	return "new RegExp(" + strings.Join(parts, " + ") + ", 'i')"
}

// regexLiteral writes a pattern as a /literal/.
func regexLiteral(p string) string {
	return "/" + strings.ReplaceAll(p, "/", `\/`) + "/"
}

func js(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSpace(b.String())
}

func jsList(ss []string) string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = js(s)
	}
	return "[" + strings.Join(out, ", ") + "]"
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func firstNavigate(s *learned.Script) int {
	for i, st := range s.Steps {
		if st.Action == learned.Navigate {
			return i
		}
	}
	return -1
}

// sortedParams ranges over a script's params by name.
func sortedParams(s *learned.Script) func(func(string, learned.Param) bool) {
	return func(yield func(string, learned.Param) bool) {
		names := make([]string, 0, len(s.Params))
		for n := range s.Params {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if !yield(n, s.Params[n]) {
				return
			}
		}
	}
}
