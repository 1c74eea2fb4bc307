package extract

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// ldNodes parses JSON-LD blocks into their top-level nodes (arrays and @graph
// flattened).
func ldNodes(blocks []json.RawMessage) []map[string]any {
	var out []map[string]any
	var add func(v any)
	add = func(v any) {
		switch t := v.(type) {
		case []any:
			for _, x := range t {
				add(x)
			}
		case map[string]any:
			if g, ok := t["@graph"]; ok {
				add(g)
			}
			out = append(out, t)
		}
	}
	for _, b := range blocks {
		var v any
		if json.Unmarshal(b, &v) == nil {
			add(v)
		}
	}
	return out
}

// ldFind returns the value of the first key matching keys, breadth first over
// the nodes and their nested objects.
func ldFind(nodes []map[string]any, keys []string) any {
	queue := make([]any, 0, len(nodes))
	for _, n := range nodes {
		queue = append(queue, n)
	}
	for i := 0; i < len(queue) && i < 10000; i++ {
		switch t := queue[i].(type) {
		case map[string]any:
			for k, v := range t {
				if !strings.HasPrefix(k, "@") && slices.Contains(keys, norm(k)) {
					return v
				}
			}
			for k, v := range t {
				if k != "@context" {
					queue = append(queue, v)
				}
			}
		case []any:
			queue = append(queue, t...)
		}
	}
	return nil
}

var numberRE = regexp.MustCompile(`-?\d[\d,]*(?:\.\d+)?|-?\.\d+`)

// coerce turns a found value into the schema's type, or says it does not fit.
func (f *filler) coerce(v any, s *Schema, path string) (any, bool) {
	if m, ok := v.(map[string]any); ok && s.main() != "object" {
		// A JSON-LD node or a microdata item standing for a scalar: its
		// value, name or text.
		for _, k := range []string{"@value", "value", "name", "text", "@id"} {
			if x, ok := m[k]; ok {
				return f.coerce(x, s, path)
			}
		}
		if props, ok := m["props"].(map[string]any); ok {
			if names, ok := props["name"].([]any); ok && len(names) > 0 {
				return f.coerce(names[0], s, path)
			}
		}
		return nil, false
	}
	if arr, ok := v.([]any); ok && s.main() != "array" {
		for _, x := range arr {
			if out, ok := f.coerce(x, s, path); ok {
				return out, true
			}
		}
		return nil, false
	}
	switch s.main() {
	case "string":
		switch t := v.(type) {
		case string:
			if t == "" {
				return nil, false
			}
			return t, true
		case float64:
			return strconv.FormatFloat(t, 'f', -1, 64), true
		case bool:
			return strconv.FormatBool(t), true
		}
	case "number", "integer":
		var n float64
		switch t := v.(type) {
		case float64:
			n = t
		case string:
			m := numberRE.FindString(t)
			if m == "" {
				f.note("%s: the page says %q, not a number", path, t)
				return nil, false
			}
			var err error
			if n, err = strconv.ParseFloat(strings.ReplaceAll(m, ",", ""), 64); err != nil {
				return nil, false
			}
		default:
			return nil, false
		}
		if s.main() == "integer" {
			if n != math.Trunc(n) {
				f.note("%s: the page says %v, not a whole number", path, v)
				return nil, false
			}
			return int64(n), true
		}
		return n, true
	case "boolean":
		switch t := v.(type) {
		case bool:
			return t, true
		case string:
			l := strings.ToLower(strings.TrimSpace(t))
			l = strings.TrimPrefix(strings.TrimPrefix(l, "https://schema.org/"), "http://schema.org/")
			switch l {
			case "true", "yes", "y", "1", "instock", "in stock", "available":
				return true, true
			case "false", "no", "n", "0", "outofstock", "out of stock", "unavailable", "soldout", "sold out":
				return false, true
			}
			f.note("%s: the page says %q, not yes or no", path, t)
		}
	case "array":
		return f.coerceArray(v, s, path)
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if s.Properties == nil {
			return m, true
		}
		out := map[string]any{}
		for _, name := range s.order {
			ps := s.Properties[name]
			for k, x := range m {
				if ps != nil && slices.Contains(labels(name, ps), norm(k)) {
					if c, ok := f.coerce(x, ps, join(path, name)); ok {
						out[name] = c
					}
					break
				}
			}
		}
		return out, len(out) > 0
	}
	return nil, false
}

func (f *filler) coerceArray(v any, s *Schema, path string) ([]any, bool) {
	arr, ok := v.([]any)
	if !ok {
		arr = []any{v}
	}
	item := s.Items
	if item == nil {
		item = &Schema{Type: "string"}
	}
	out := []any{}
	for _, x := range arr {
		if x == nil {
			continue
		}
		if c, ok := f.coerce(x, item, path+"[]"); ok {
			out = append(out, c)
		}
	}
	return out, len(out) > 0
}

// table finds the table that best fits an array field: by its headers against
// the item's properties and by its caption or heading against the field's name.
func (f *filler) table(s *Schema, keys []string, path string) ([]any, bool) {
	item := s.Items
	best, bestScore := -1, 0
	for i, t := range f.facts.Tables {
		if len(t.Headers) == 0 || len(t.Rows) == 0 {
			continue
		}
		score := 0
		if item != nil && item.Properties != nil {
			for name, ps := range item.Properties {
				if slices.ContainsFunc(t.Headers, func(h string) bool { return slices.Contains(labels(name, ps), norm(h)) }) {
					score += 2
				}
			}
		}
		for _, k := range keys {
			if k != "" && (strings.Contains(norm(t.Caption), k) || strings.Contains(norm(t.Heading), k)) {
				score += 3
			}
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	if best < 0 {
		return nil, false
	}
	t := f.facts.Tables[best]
	out := []any{}
	for _, row := range t.Rows {
		obj := map[string]any{}
		for c, h := range t.Headers {
			if c >= len(row) {
				break
			}
			key, ps := h, (*Schema)(nil)
			if item != nil && item.Properties != nil {
				key = ""
				for _, name := range item.order {
					if p := item.Properties[name]; p != nil && slices.Contains(labels(name, p), norm(h)) {
						key, ps = name, p
						break
					}
				}
				if key == "" {
					continue
				}
			}
			if ps == nil {
				if row[c] != "" {
					obj[key] = row[c]
				}
				continue
			}
			if v, ok := f.coerce(row[c], ps, join(path, key)); ok {
				obj[key] = v
			}
		}
		if len(obj) > 0 {
			out = append(out, obj)
		}
	}
	return out, len(out) > 0
}

func (f *filler) note(format string, args ...any) {
	f.res.Notes = append(f.res.Notes, fmt.Sprintf(format, args...))
}
