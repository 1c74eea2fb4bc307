package extract

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// The rules fill what the page marks up or labels. A model, when one is
// configured, may be asked for the rest: it reads the page's text and names
// values; a value is kept only when that text states it, so the model can find
// but never invent.

// maxModelText caps the page text sent to a model.
const maxModelText = 24000

// Askable returns the missing fields a model may be asked for, by path:
// strings and numbers (a boolean or an object cannot be checked against the
// text), outside arrays.
func (r *Result) Askable(s *Schema) map[string]*Schema {
	out := map[string]*Schema{}
	for _, path := range r.Missing {
		if fs := s.at(path); fs != nil && (fs.main() == "string" || fs.main() == "number" || fs.main() == "integer") {
			out[path] = fs
		}
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
		text = text[:maxModelText] + "\n[the rest of the page is cut]"
	}
	fmt.Fprintf(&b, "\nThe page (%s):\n%s", url, text)
	return system, b.String()
}

// MergeModel takes a model's answer: each asked field whose value the page's
// text states goes into Data with source "model"; a value the text does not
// state is left out and said so. It returns the fields it kept.
func (r *Result) MergeModel(answer string, fields map[string]*Schema, text string) []string {
	var got map[string]any
	if i, j := strings.IndexByte(answer, '{'), strings.LastIndexByte(answer, '}'); i >= 0 && j > i {
		if err := json.Unmarshal([]byte(answer[i:j+1]), &got); err != nil {
			got = nil
		}
	}
	if got == nil {
		r.Notes = append(r.Notes, "the model's answer was not a JSON object; nothing taken from it")
		return nil
	}
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
		r.Missing = slices.DeleteFunc(r.Missing, func(m string) bool { return m == path })
		kept = append(kept, path)
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
		var n float64
		switch x := v.(type) {
		case float64:
			n = x
		case string:
			f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
			if err != nil {
				return nil, false
			}
			n = f
		default:
			return nil, false
		}
		if fs.main() == "integer" && n != float64(int64(n)) {
			return nil, false
		}
		for _, form := range []string{strconv.FormatFloat(n, 'f', -1, 64), strconv.FormatFloat(n, 'f', 2, 64), strings.ReplaceAll(strconv.FormatFloat(n, 'f', -1, 64), ".", ",")} {
			if containsNumber(page, form) {
				return n, true
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

// containsNumber reports whether num appears in text as a whole number, not
// inside a longer one ("34.9" is in "€34.90", not in "134.9"; "34" is not in
// "34.90").
func containsNumber(text, num string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], num)
		if j < 0 {
			return false
		}
		start, rest := i+j, text[i+j+len(num):]
		k := 0
		if strings.ContainsAny(num, ".,") {
			for k < len(rest) && rest[k] == '0' { // trailing zeros of the decimals
				k++
			}
		}
		before := start == 0 || !isDigit(text[start-1])
		after := k == len(rest) || !isDigit(rest[k]) && !(strings.ContainsRune(".,", rune(rest[k])) && k+1 < len(rest) && isDigit(rest[k+1]))
		if before && after {
			return true
		}
		i = start + 1
	}
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// squash lowers text and collapses its white space, for comparing values
// with what a page shows.
func squash(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// setPath puts v at a dotted path, making the objects on the way.
func setPath(data map[string]any, path string, v any) {
	names := strings.Split(path, ".")
	cur := data
	for _, n := range names[:len(names)-1] {
		next, ok := cur[n].(map[string]any)
		if !ok {
			next = map[string]any{}
			cur[n] = next
		}
		cur = next
	}
	cur[names[len(names)-1]] = v
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
