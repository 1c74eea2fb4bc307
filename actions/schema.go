package actions

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// Param describes one argument of an action, as its argument struct declares it
// with tags: `json:"name"`, `desc:"…"`, `enum:"a,b"`, `required:"true"`.
type Param struct {
	Name     string
	Type     string // JSON Schema type: string, integer, number, boolean, array, object
	Items    string // element type of an array
	Enum     []string
	Required bool
	Desc     string
	// Fields are the properties of an array's object items (fillForm's
	// fields), or nil.
	Fields []Param
}

// commonDesc describes the arguments many actions share, where an action's
// struct gives no description of its own: one short phrase each, since every
// tool repeats them.
var commonDesc = map[string]string{
	"page":      "tab id",
	"ref":       "from snapshot",
	"selector":  "CSS, if no ref",
	"timeoutMs": "deadline, ms",
}

// define builds an action whose arguments are the struct A.
func define[A any](name, desc string, class Class, h Hints, run func(ctx context.Context, env *Env, a A) (*Result, error)) *Action {
	params := paramsOf(reflect.TypeFor[A]())
	act := &Action{Name: name, Class: class, desc: desc, hints: h, params: params, schema: schemaOf(params)}
	act.run = func(ctx context.Context, env *Env, raw json.RawMessage) (*Result, error) {
		var a A
		if err := bind(raw, &a); err != nil {
			return nil, err
		}
		return run(ctx, env, a)
	}
	return act
}

// inReadOnly gives the action another description and hints in read-only mode.
func (a *Action) inReadOnly(desc string, h Hints) *Action {
	a.roDesc, a.roHints = desc, h
	return a
}

// describe sets the description of a parameter whose text is computed.
func (a *Action) describe(param, desc string) *Action {
	for i := range a.params {
		if a.params[i].Name == param {
			a.params[i].Desc = desc
		}
	}
	a.schema = schemaOf(a.params)
	return a
}

// inGroup puts the action in a capability group, offered only when asked for.
func (a *Action) inGroup(group string) *Action {
	a.Group = group
	return a
}

// ownTimeout marks an action that takes its deadline from timeoutMs.
func (a *Action) ownTimeout() *Action {
	a.OwnTimeout = true
	return a
}

var (
	refType = reflect.TypeFor[Ref]()
	rawType = reflect.TypeFor[json.RawMessage]()
)

// paramsOf lists the arguments of an argument struct, embedded structs flattened
// in place.
func paramsOf(t reflect.Type) []Param {
	var out []Param
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			out = append(out, paramsOf(f.Type)...)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		p := Param{Name: name, Desc: f.Tag.Get("desc"), Required: f.Tag.Get("required") == "true"}
		if p.Desc == "" {
			p.Desc = commonDesc[name]
		}
		if e := f.Tag.Get("enum"); e != "" {
			p.Enum = strings.Split(e, ",")
		}
		p.Type = jsonType(f.Type)
		if p.Type == "array" {
			p.Items = jsonType(f.Type.Elem())
			if el := f.Type.Elem(); el.Kind() == reflect.Struct && el != refType {
				p.Fields = paramsOf(el)
			}
		}
		out = append(out, p)
	}
	return out
}

func jsonType(t reflect.Type) string {
	if t == refType {
		return "string"
	}
	if t == rawType {
		return "object"
	}
	switch t.Kind() {
	case reflect.Pointer:
		return jsonType(t.Elem())
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "integer"
	case reflect.Float64, reflect.Float32:
		return "number"
	case reflect.Slice:
		return "array"
	case reflect.Map, reflect.Struct:
		return "object"
	}
	panic(fmt.Sprintf("actions: no JSON type for %s", t))
}

// schemaOf renders params as a JSON Schema object, properties in order.
func schemaOf(params []Param) json.RawMessage {
	var b bytes.Buffer
	writeObject(&b, params)
	return json.RawMessage(b.Bytes())
}

// writeObject writes params as the schema of an object.
func writeObject(b *bytes.Buffer, params []Param) {
	b.WriteString(`{"type":"object","properties":{`)
	var required []string
	for i, p := range params {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSON(b, p.Name)
		b.WriteString(`:{"type":`)
		writeJSON(b, p.Type)
		if p.Type == "array" && p.Fields != nil {
			b.WriteString(`,"items":`)
			writeObject(b, p.Fields)
		} else if p.Type == "array" {
			b.WriteString(`,"items":{"type":`)
			writeJSON(b, p.Items)
			if p.Enum != nil {
				b.WriteString(`,"enum":`)
				writeJSON(b, p.Enum)
			}
			b.WriteByte('}')
		} else if p.Enum != nil {
			b.WriteString(`,"enum":`)
			writeJSON(b, p.Enum)
		}
		if p.Type == "object" {
			b.WriteString(`,"properties":{}`)
		}
		if p.Desc != "" {
			b.WriteString(`,"description":`)
			writeJSON(b, p.Desc)
		}
		b.WriteByte('}')
		if p.Required {
			required = append(required, p.Name)
		}
	}
	b.WriteByte('}')
	if len(required) > 0 {
		b.WriteString(`,"required":`)
		writeJSON(b, required)
	}
	b.WriteByte('}')
}

func writeJSON(b *bytes.Buffer, v any) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // strings and string slices always encode
	}
	b.Truncate(b.Len() - 1) // the encoder's newline
}
