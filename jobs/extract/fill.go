package extract

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient/pagefacts"
)

// Result is a filled schema and an account of it.
type Result struct {
	// Data holds the fields the page states, shaped by the schema.
	Data map[string]any `json:"data"`
	// Sources says where each field came from, by path ("price",
	// "offers.price"): json-ld, microdata, x-selector, table, dl, table-row
	// (a two-column table), text ("Label: value"), meta (a meta tag),
	// heading (the main heading, for a title or name), title (the
	// document's title, for one), or model (named by a model and stated in
	// the page's text).
	Sources map[string]string `json:"sources,omitempty"`
	// Missing lists the fields the page does not state; they are absent
	// from Data, never guessed.
	Missing []string `json:"missing,omitempty"`
	// Notes say what else the caller should know (a value that did not fit
	// its type, a required field absent, an invalid selector).
	Notes []string `json:"notes,omitempty"`
}

// Queries returns the selector queries the schema's x-selector properties
// need; their keys are the properties' paths.
func Queries(s *Schema) []pagefacts.Query {
	var out []pagefacts.Query
	var walk func(s *Schema, path string)
	walk = func(s *Schema, path string) {
		for _, name := range s.order {
			ps := s.Properties[name]
			if ps == nil {
				continue
			}
			p := join(path, name)
			if ps.Selector == "" {
				if ps.is("object") && ps.Properties != nil {
					walk(ps, p)
				}
				continue
			}
			q := pagefacts.Query{Key: p, Selector: ps.Selector, Attr: ps.Attribute}
			fields := ps
			if ps.main() == "array" && ps.Items != nil {
				fields = ps.Items
			}
			if fields.main() == "object" {
				for _, fn := range fields.order {
					if fs := fields.Properties[fn]; fs != nil && fs.Selector != "" {
						q.Fields = append(q.Fields, pagefacts.Query{Key: fn, Selector: fs.Selector, Attr: fs.Attribute})
					}
				}
			}
			out = append(out, q)
		}
	}
	walk(s, "")
	return out
}

// Fill fills schema s (raw is its JSON, for validation) from a page's facts.
func Fill(s *Schema, raw json.RawMessage, facts *pagefacts.Facts) *Result {
	f := &filler{facts: facts, res: &Result{Sources: map[string]string{}}, ld: ldNodes(facts.JSONLD)}
	f.res.Notes = append(f.res.Notes, facts.Errors...)
	f.res.Data = f.object(s, "", f.ld)
	f.res.restateMissing()
	if sch, err := compile(raw); err == nil {
		if err := sch.Validate(toJSONValue(f.res.Data)); err != nil {
			f.res.Notes = append(f.res.Notes, invalidNote+problems(err))
		}
	}
	return f.res
}

type filler struct {
	facts *pagefacts.Facts
	res   *Result
	ld    []map[string]any
}

func (f *filler) object(s *Schema, path string, ld []map[string]any) map[string]any {
	out := map[string]any{}
	for _, name := range s.order {
		ps := s.Properties[name]
		if ps == nil {
			continue
		}
		p := join(path, name)
		if v, src, ok := f.value(ps, name, p, ld); ok {
			out[name] = v
			if src != "" {
				f.res.Sources[p] = src
			}
		} else {
			f.res.Missing = append(f.res.Missing, p)
		}
	}
	// A required field the schema gives no properties for is not looked for,
	// and the page does not state it either: it is missing too.
	for _, name := range s.Required {
		if _, described := s.Properties[name]; !described {
			f.res.Missing = append(f.res.Missing, join(path, name))
		}
	}
	return out
}

// value finds one field. src is "" for an object filled from several sources
// (each of its fields has its own).
func (f *filler) value(s *Schema, name, path string, ld []map[string]any) (any, string, bool) {
	if s.Selector != "" {
		return f.selected(s, path)
	}
	keys := labels(name, s)
	switch s.main() {
	case "object":
		if s.Properties == nil {
			break
		}
		scope := ld
		if sub, ok := ldFind(ld, keys).(map[string]any); ok {
			scope = ldNodes([]json.RawMessage{mustJSON(sub)})
		}
		before := len(f.res.Missing)
		obj := f.object(s, path, scope)
		if len(obj) == 0 {
			f.res.Missing = f.res.Missing[:before] // the object is missing, not each field
			return nil, "", false
		}
		return obj, "", true
	case "array":
		if v := ldFind(ld, keys); v != nil {
			if out, ok := f.coerceArray(v, s, path); ok {
				return out, "json-ld", true
			}
		}
		if vs := f.microdata(keys); len(vs) > 0 {
			if out, ok := f.coerceArray(vs, s, path); ok {
				return out, "microdata", true
			}
		}
		if rows, ok := f.table(s, keys, path); ok {
			return rows, "table", true
		}
		return nil, "", false
	}
	if v := ldFind(ld, keys); v != nil {
		if out, ok := f.coerce(v, s, path); ok {
			return out, "json-ld", true
		}
	}
	if vs := f.microdata(keys); len(vs) > 0 {
		if out, ok := f.coerce(vs[0], s, path); ok {
			return out, "microdata", true
		}
	}
	for _, from := range []string{"dl", "table", "text"} {
		for _, p := range f.facts.Pairs {
			if p.From == from && slices.Contains(keys, norm(p.Label)) {
				if out, ok := f.coerce(p.Value, s, path); ok {
					src := from
					if from == "table" {
						src = "table-row"
					}
					return out, src, true
				}
			}
		}
	}
	if v, src, ok := f.meta(keys); ok {
		if out, ok := f.coerce(v, s, path); ok {
			return out, src, true
		}
	}
	return nil, "", false
}

// selected takes a field's value from its x-selector's matches.
func (f *filler) selected(s *Schema, path string) (any, string, bool) {
	vals := f.facts.Selected[path]
	if len(vals) == 0 {
		f.res.Notes = append(f.res.Notes, fmt.Sprintf("%s: x-selector %q matched nothing", path, s.Selector))
		return nil, "", false
	}
	if s.main() == "array" {
		out, ok := f.coerceArray(vals, s, path)
		return out, "x-selector", ok
	}
	for _, v := range vals {
		if v == nil {
			continue
		}
		if out, ok := f.coerce(v, s, path); ok {
			return out, "x-selector", true
		}
	}
	return nil, "", false
}

func (f *filler) microdata(keys []string) []any {
	for _, it := range f.facts.Microdata {
		if vs := microFind(it.Props, keys); len(vs) > 0 {
			return vs
		}
	}
	return nil
}

func microFind(props map[string][]any, keys []string) []any {
	for k, vs := range props {
		if slices.Contains(keys, norm(k)) {
			return vs
		}
	}
	for _, vs := range props {
		for _, v := range vs {
			if m, ok := v.(map[string]any); ok {
				if sub, ok := m["props"].(map[string]any); ok {
					inner := map[string][]any{}
					for k, x := range sub {
						if arr, ok := x.([]any); ok {
							inner[k] = arr
						}
					}
					if found := microFind(inner, keys); len(found) > 0 {
						return found
					}
				}
			}
		}
	}
	return nil
}

// labels are the normalised names a field may go by on the page: its name,
// title and x-label, and the schema.org names of the same thing.
func labels(name string, s *Schema) []string {
	out := []string{norm(name)}
	for _, l := range append([]string{s.Title, s.Label}, vocabulary[norm(name)]...) {
		if n := norm(l); n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// norm folds a name for comparison: lower case, letters and digits only.
func norm(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
