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
