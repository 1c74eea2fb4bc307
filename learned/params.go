package learned

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

var (
	paramName = regexp.MustCompile(`^[a-z][a-z0-9_]{0,39}$`)
	paramRef  = regexp.MustCompile(`\{\{([a-z][a-z0-9_]{0,39})\}\}`)
)

// refsIn lists the params a text names ({{name}}).
func refsIn(s string) []string {
	var out []string
	for _, m := range paramRef.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

// Values are the params of one run, by name.
type Values map[string]string

// Bind gives each of s's params its value for a run: the given one, else
// its default. A secret without a value, or a given name the script does not
// declare (a typo), is an error that names them.
func (s *Script) Bind(given map[string]string) (Values, error) {
	out := Values{}
	var missing, unknown []string
	for name, p := range s.Params {
		v, ok := given[name]
		switch {
		case ok:
			out[name] = v
		case p.Secret:
			missing = append(missing, name)
		default:
			out[name] = p.Default
		}
	}
	for name := range given {
		if _, ok := s.Params[name]; !ok {
			unknown = append(unknown, name)
		}
	}
	sort.Strings(missing)
	sort.Strings(unknown)
	switch {
	case len(unknown) > 0:
		return nil, fmt.Errorf("the script has no param %s; its params: %s", strings.Join(unknown, ", "), s.paramList())
	case len(missing) > 0:
		return nil, fmt.Errorf("give the secret param %s (secrets are never kept in a script)", strings.Join(missing, ", "))
	}
	return out, nil
}

// Secrets lists the values of the secret params in v.
func (s *Script) Secrets(v Values) []string {
	var out []string
	for name, p := range s.Params {
		if p.Secret && v[name] != "" {
			out = append(out, v[name])
		}
	}
	return out
}

func (s *Script) paramList() string {
	if len(s.Params) == 0 {
		return "none"
	}
	var names []string
	for n, p := range s.Params {
		if p.Secret {
			n += " (secret)"
		}
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// Expand replaces the {{param}}s of text by their values.
func (v Values) Expand(text string) string {
	if !strings.Contains(text, "{{") {
		return text
	}
	return paramRef.ReplaceAllStringFunc(text, func(m string) string {
		if val, ok := v[m[2:len(m)-2]]; ok {
			return val
		}
		return m
	})
}

// Template puts the values back into text as their {{param}}s: each of
// at least minTemplated characters, the longest first (a value inside
// another does not split it), outside the {{param}}s text names already.
// skip leaves a param out (a secret, whose value no text may hold anyway).
func (v Values) Template(text string, skip func(name string) bool) string {
	names := make([]string, 0, len(v))
	for name, val := range v {
		if (skip == nil || !skip(name)) && len([]rune(val)) >= minTemplated && !strings.Contains(val, "{{") {
			names = append(names, name)
		}
	}
	if len(names) == 0 || text == "" {
		return text
	}
	sort.Slice(names, func(i, j int) bool {
		if a, b := len(v[names[i]]), len(v[names[j]]); a != b {
			return a > b
		}
		return names[i] < names[j]
	})
	var b strings.Builder
	last := 0
	for _, ref := range append(paramRef.FindAllStringIndex(text, -1), []int{len(text), len(text)}) {
		lit := text[last:ref[0]]
		for _, name := range names {
			lit = replaceOutside(lit, v[name], "{{"+name+"}}")
		}
		b.WriteString(lit)
		b.WriteString(text[ref[0]:ref[1]])
		last = ref[1]
	}
	return b.String()
}

// replaceOutside replaces old by repl in s except inside the {{param}}s an
// earlier replacement wrote.
func replaceOutside(s, old, repl string) string {
	var b strings.Builder
	last := 0
	for _, ref := range append(paramRef.FindAllStringIndex(s, -1), []int{len(s), len(s)}) {
		b.WriteString(strings.ReplaceAll(s[last:ref[0]], old, repl))
		b.WriteString(s[ref[0]:ref[1]])
		last = ref[1]
	}
	return b.String()
}

// slug makes a param name of a field's name: "E-mail address" → e_mail_address.
func slug(s string) string {
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			if b.Len() == 0 && r <= '9' {
				b.WriteString("p")
			}
			b.WriteRune(r)
			under = false
		case b.Len() > 0 && !under:
			b.WriteByte('_')
			under = true
		}
		if b.Len() >= 30 {
			break
		}
	}
	return strings.TrimRight(b.String(), "_")
}
