package actions

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
)

// argErr is an argument the caller must fix, with a hint.
func argErr(hint, format string, args ...any) *cdpclient.ArgError {
	return &cdpclient.ArgError{Msg: fmt.Sprintf(format, args...), Hint: hint}
}

// bind decodes an action's arguments into dst (a pointer to a struct with json
// tags), refusing unknown names and wrongly typed values with a clear message.
func bind(raw json.RawMessage, dst any) error {
	if t := bytes.TrimSpace(raw); len(t) == 0 || string(t) == "null" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err := dec.Decode(dst)
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		if i := strings.LastIndexByte(te.Field, '.'); i >= 0 {
			te.Field = te.Field[i+1:] // embedded argument structs prefix their name
		}
		if te.Field == "" {
			return argErr("send the arguments as a JSON object", "arguments must be a JSON object, not %s", te.Value)
		}
		return argErr(fmt.Sprintf("%s takes %s", te.Field, jsonKind(te.Type)), "argument %q must be %s, not %s", te.Field, jsonKind(te.Type), te.Value)
	case errors.As(err, &se):
		return argErr("send the arguments as a JSON object", "arguments are not valid JSON: %v", err)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		field := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return argErr("valid arguments: "+strings.Join(fieldNames(dst), ", "), "unknown argument %q", field)
	}
	return argErr("check the arguments against the tool's schema", "bad arguments: %v", err)
}

func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "a whole number"
	case reflect.Float64, reflect.Float32:
		return "a number"
	case reflect.Slice:
		return "an array of " + strings.TrimPrefix(jsonKind(t.Elem()), "a ") + "s"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "a JSON value"
}

func fieldNames(dst any) []string {
	var out []string
	for _, p := range paramsOf(reflect.TypeOf(dst).Elem()) {
		out = append(out, p.Name)
	}
	sort.Strings(out)
	return out
}

// require reports a missing required argument.
func require(name, value, example string) error {
	if strings.TrimSpace(value) == "" {
		return argErr("for example "+example, "argument %q is required", name)
	}
	return nil
}

// Ref is an element ref as clients send it: "12" or 12.
type Ref string

// UnmarshalJSON accepts a string or a whole number.
func (r *Ref) UnmarshalJSON(b []byte) error {
	var n json.Number
	if err := json.Unmarshal(b, &n); err == nil {
		*r = Ref(n.String())
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return &json.UnmarshalTypeError{Value: string(b), Type: reflect.TypeFor[string](), Field: "ref"}
	}
	*r = Ref(s)
	return nil
}

// targetArgs are the element arguments of interaction actions.
type targetArgs struct {
	Ref      Ref    `json:"ref"`
	Selector string `json:"selector"`
}

func (a targetArgs) target() cdpclient.Target {
	return cdpclient.Target{Ref: string(a.Ref), Selector: a.Selector}
}

// require reports a missing element target.
func (a targetArgs) require() error {
	if a.Ref == "" && a.Selector == "" {
		return argErr("take a snapshot and pass the element's number as ref, e.g. {\"ref\":\"12\"}", "pass ref or selector to name the element")
	}
	return nil
}
