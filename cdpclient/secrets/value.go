package secrets

import (
	"bytes"
	"encoding/json"
)

// RedactValue returns v (a value encoding/json can write, such as a tool's
// structured answer) with every secret in its strings, keys included,
// replaced by Mask; v itself is not changed. The answer is JSON's own
// shape of v (maps, slices, strings, json.Number), or v when no secret is
// known.
func (r *Registry) RedactValue(v any) any {
	if r.Len() == 0 || v == nil {
		return v
	}
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var plain any
	if err := dec.Decode(&plain); err != nil {
		return json.RawMessage(r.RedactBytes(b))
	}
	return r.redactTree(plain)
}

func (r *Registry) redactTree(v any) any {
	switch t := v.(type) {
	case string:
		return r.Redact(t)
	case []any:
		for i, e := range t {
			t[i] = r.redactTree(e)
		}
		return t
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[r.Redact(k)] = r.redactTree(e)
		}
		return out
	}
	return v
}
