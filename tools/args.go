package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// argError is a problem with the arguments a client sent; it becomes a tool
// result with isError and a hint, never a protocol error.
type argError struct{ msg, hint string }

func (e *argError) Error() string { return e.msg }

func badArg(hint, format string, args ...any) *argError {
	return &argError{msg: fmt.Sprintf(format, args...), hint: hint}
}

// bind decodes the call's arguments into dst (a pointer to a struct with json
// tags), rejecting unknown names and wrongly typed values with a clear message.
func bind(req mcp.CallToolRequest, dst any) error {
	raw := req.Params.RawArguments
	if len(raw) == 0 {
		if req.Params.Arguments == nil {
			return nil
		}
		var err error
		if raw, err = json.Marshal(req.Params.Arguments); err != nil {
			return badArg("send the arguments as a JSON object", "arguments cannot be encoded: %v", err)
		}
	}
	if t := bytes.TrimSpace(raw); len(t) == 0 || string(t) == "null" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err := dec.Decode(dst)
	if err == nil {
		return nil
	}
	names := fieldNames(dst)
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		if i := strings.LastIndexByte(te.Field, '.'); i >= 0 {
			te.Field = te.Field[i+1:] // embedded argument structs prefix their name
		}
		if te.Field == "" {
			return badArg("send the arguments as a JSON object", "arguments must be a JSON object, not %s", te.Value)
		}
		return badArg(fmt.Sprintf("%s takes %s", te.Field, jsonKind(te.Type)), "argument %q must be %s, not %s", te.Field, jsonKind(te.Type), te.Value)
	case errors.As(err, &se):
		return badArg("send the arguments as a JSON object", "arguments are not valid JSON: %v", err)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		field := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return badArg("valid arguments: "+strings.Join(names, ", "), "unknown argument %q", field)
	}
	return badArg("check the arguments against the tool's schema", "bad arguments: %v", err)
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
	t := reflect.TypeOf(dst)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			out = append(out, fieldNames(reflect.New(f.Type).Interface())...)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// require reports a missing required argument.
func require(name, value, example string) error {
	if strings.TrimSpace(value) == "" {
		return badArg("for example "+example, "argument %q is required", name)
	}
	return nil
}
