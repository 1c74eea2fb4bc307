package extract

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
)

// The rules fill what the page marks up or labels. A model, when one is
// configured, may be asked for the rest: it reads the page's text and names
// values; a value is kept only when that text states it, so the model can find
// but never invent.

// maxModelText caps the page text sent to a model.
const maxModelText = 24000

// Askable returns the missing fields a model may be asked for, by path:
// strings and numbers (a boolean cannot be checked against the text), outside
// arrays; a missing object's such fields.
func (r *Result) Askable(s *Schema) map[string]*Schema {
	out := map[string]*Schema{}
	var add func(path string, fs *Schema)
	add = func(path string, fs *Schema) {
		switch {
		case fs == nil:
		case fs.main() == "string" || fs.main() == "number" || fs.main() == "integer":
			out[path] = fs
		case fs.main() == "object":
			for _, name := range fs.order {
				add(join(path, name), fs.Properties[name])
			}
		}
	}
	for _, path := range r.Missing {
		add(path, s.at(path))
	}
	return out
}

// at returns the schema of the property at a dotted path through objects.
func (s *Schema) at(path string) *Schema {
	cur := s
	for name := range strings.SplitSeq(path, ".") {
		if cur == nil || cur.Properties == nil {
			return nil
		}
		cur = cur.Properties[name]
	}
	return cur
}

// ModelPrompt is what a model is asked: the fields with their types and
// descriptions, and the page's text (cut at maxModelText).
func ModelPrompt(fields map[string]*Schema, url, text string) (system, user string) {
	system = "You read a web page's text and extract facts from it. Answer with one JSON object and nothing else. " +
		"Its keys are the field paths asked for; each value is copied from the text as written (a number as a JSON number). " +
		"Leave out every field the text does not state. Never guess, infer or compute a value."
	var b strings.Builder
	b.WriteString("Fields:\n")
	for _, path := range slices.Sorted(maps.Keys(fields)) {
		fs := fields[path]
		fmt.Fprintf(&b, "- %s (%s)", path, fs.main())
		for _, d := range []string{fs.Title, fs.Label} {
			if d != "" {
				b.WriteString(": " + d)
			}
		}
		b.WriteByte('\n')
	}
	if len(text) > maxModelText {
		text = text[:secrets.Cut(text, maxModelText)] + "\n[the rest of the page is cut]"
	}
	fmt.Fprintf(&b, "\nThe page (%s):\n%s", url, text)
	return system, b.String()
}

// MergeModel takes a model's answer: each asked field whose value the page's
// text states, and that satisfies the schema (raw), goes into Data with source
// "model"; any other value is left out and said so. It returns the fields it
// kept.
func (r *Result) MergeModel(answer string, fields map[string]*Schema, text string, raw json.RawMessage) []string {
	var nested map[string]any
	if i, j := strings.IndexByte(answer, '{'), strings.LastIndexByte(answer, '}'); i >= 0 && j > i {
		if err := json.Unmarshal([]byte(answer[i:j+1]), &nested); err != nil {
			nested = nil
		}
	}
	if nested == nil {
		r.Notes = append(r.Notes, "the model's answer was not a JSON object; nothing taken from it")
		return nil
	}
	got := map[string]any{}
	flatten(nested, "", got)
	page := squash(text)
	var kept, refused []string
	for _, path := range slices.Sorted(maps.Keys(got)) {
		fs := fields[path]
		if fs == nil || got[path] == nil {
			continue // not asked, or said absent
		}
		v, ok := checkAgainst(got[path], fs, page)
		if !ok {
			refused = append(refused, fmt.Sprintf("%s (%v)", path, got[path]))
			continue
		}
		setPath(r.Data, path, v)
		r.Sources[path] = "model"
		r.Missing = slices.DeleteFunc(r.Missing, func(m string) bool { return m == path || strings.HasPrefix(path, m+".") })
		kept = append(kept, path)
	}
	if bad := r.recheck(raw, kept); len(bad) > 0 {
		kept = slices.DeleteFunc(kept, func(p string) bool { return slices.Contains(bad, p) })
		r.Notes = append(r.Notes, fmt.Sprintf("the model's %s did not satisfy the schema; left out", strings.Join(bad, ", ")))
	}
	if len(kept) > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("the model found %s in the page's text (source \"model\")", strings.Join(kept, ", ")))
	}
	if len(refused) > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("the model named %s, which the page's text does not state; left out", strings.Join(refused, ", ")))
	}
	r.restateMissing()
	return kept
}

// checkAgainst converts a model's value to the field's type and reports
// whether the page's text (squashed) states it.
func checkAgainst(v any, fs *Schema, page string) (any, bool) {
	switch fs.main() {
	case "number", "integer":
		var said []float64
		switch x := v.(type) {
		case float64:
			said = []float64{x}
		case string:
			said = readings(pageNumberRE.FindString(x))
		}
		for _, n := range said {
			if fs.main() == "integer" && n != math.Trunc(n) {
				continue
			}
			for _, m := range pageNumberRE.FindAllString(page, -1) {
				if slices.Contains(readings(m), n) {
					return n, true
				}
			}
		}
		return nil, false
	default:
		s, ok := v.(string)
		if !ok {
			if f, isNum := v.(float64); isNum {
				s = strconv.FormatFloat(f, 'f', -1, 64)
			} else {
				return nil, false
			}
		}
		s = strings.TrimSpace(s)
		return s, s != "" && strings.Contains(page, squash(s))
	}
}

// pageNumberRE finds numbers as pages write them, grouping and decimal marks
// included: 1,299.00, 1.299,00, 4,6, 34.90.
var pageNumberRE = regexp.MustCompile(`\d(?:[\d.,]*\d)?`)

// readings are the values a number as written may stand for: 1,299.00 and
// 1.299,00 are 1299; 4,6 is 4.6 or 46; 1.299 is 1.299 or 1299.
func readings(s string) []float64 {
	dot, comma := strings.LastIndexByte(s, '.'), strings.LastIndexByte(s, ',')
	var forms []string
	switch {
	case s == "":
	case dot >= 0 && comma >= 0 && dot > comma:
		forms = []string{strings.ReplaceAll(s, ",", "")}
	case dot >= 0 && comma >= 0:
		forms = []string{strings.ReplaceAll(strings.ReplaceAll(s, ".", ""), ",", ".")}
	case comma >= 0:
		forms = []string{strings.ReplaceAll(s, ",", "")}
		if strings.Count(s, ",") == 1 {
			forms = append(forms, strings.Replace(s, ",", ".", 1))
		}
	case dot >= 0:
		forms = []string{s, strings.ReplaceAll(s, ".", "")}
	default:
		forms = []string{s}
	}
	var out []float64
	for _, f := range forms {
		if n, err := strconv.ParseFloat(f, 64); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// flatten turns nested answer objects into dotted paths: {"shipping":
// {"days": 2}} is shipping.days.
func flatten(m map[string]any, prefix string, out map[string]any) {
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			flatten(sub, join(prefix, k), out)
			continue
		}
		out[join(prefix, k)] = v
	}
}

// squash lowers text and collapses its white space, for comparing values
// with what a page shows.
func squash(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// setPath puts v at a dotted path, making the objects on the way.
func setPath(data map[string]any, path string, v any) {
	parent, name := parentAt(data, path, true)
	parent[name] = v
}

// parentAt returns the object that holds (or is to hold) the value at a
// dotted path, and the value's name in it. With create it makes the objects
// on the way; without, it returns nil where one is missing.
func parentAt(data map[string]any, path string, create bool) (map[string]any, string) {
	names := strings.Split(path, ".")
	cur := data
	for _, n := range names[:len(names)-1] {
		next, ok := cur[n].(map[string]any)
		if !ok {
			if !create {
				return nil, ""
			}
			next = map[string]any{}
			cur[n] = next
		}
		cur = next
	}
	return cur, names[len(names)-1]
}

// missingNote begins the note naming the fields the page does not state.
const missingNote = "the page does not state "

// restateMissing rewrites the note naming the fields the page does not state.
func (r *Result) restateMissing() {
	r.Notes = slices.DeleteFunc(r.Notes, func(n string) bool { return strings.HasPrefix(n, missingNote) })
	if len(r.Missing) > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf(missingNote+"%s; left out, not guessed", strings.Join(r.Missing, ", ")))
	}
}
