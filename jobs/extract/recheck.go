package extract

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// invalidNote begins the note saying the data does not satisfy the schema.
const invalidNote = "the data does not satisfy the schema: "

// recheck validates Data against the schema (raw) once a model's fields
// (kept) are in: those whose values fail it (a minimum, an enum, a pattern)
// are taken out again and back among the missing. It returns them, and
// rewrites the note on what still does not satisfy the schema.
func (r *Result) recheck(raw json.RawMessage, kept []string) []string {
	sch, err := compile(raw)
	if err != nil {
		return nil
	}
	failing := map[string]bool{}
	var ve *jsonschema.ValidationError
	if errors.As(sch.Validate(toJSONValue(r.Data)), &ve) {
		failedAt(ve, failing)
	}
	var bad []string
	for _, p := range kept {
		if failing[p] {
			bad = append(bad, p)
			deletePath(r.Data, p)
			delete(r.Sources, p)
			r.Missing = append(r.Missing, p)
		}
	}
	r.Notes = slices.DeleteFunc(r.Notes, func(n string) bool { return strings.HasPrefix(n, invalidNote) })
	if err := sch.Validate(toJSONValue(r.Data)); err != nil {
		r.Notes = append(r.Notes, invalidNote+problems(err))
	}
	return bad
}

// failedAt collects the dotted paths of the values a validation error's
// leaves are about ("" for the whole object, as a missing required field is).
func failedAt(ve *jsonschema.ValidationError, out map[string]bool) {
	if len(ve.Causes) == 0 {
		out[strings.Join(ve.InstanceLocation, ".")] = true
	}
	for _, c := range ve.Causes {
		failedAt(c, out)
	}
}

// deletePath removes the value at a dotted path.
func deletePath(data map[string]any, path string) {
	if parent, name := parentAt(data, path, false); parent != nil {
		delete(parent, name)
	}
}
