package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/runtime"
)

// Limits of a value read back from the page.
const (
	maxValueDepth = 8
	maxValueNodes = 2000
	maxValueItems = 200 // per array or object
)

// valueReader writes a remote value as JSON text without running page code: it
// reads objects with Runtime.getProperties, which reports accessors without
// calling them and never converts to strings. What JSON cannot carry is written
// as JavaScript would print it (undefined, NaN, -0, 10n) or described in a
// string ("<button#save.primary>", "[function f]", "[getter]", "[circular]").
type valueReader struct {
	c     *cdp.Client
	b     bytes.Buffer
	nodes int
	cut   int                     // items left out for the limits
	path  []*runtime.RemoteObject // the objects being written, outermost first
}

// readValue renders r, held by session c, as text.
func readValue(ctx context.Context, c *cdp.Client, r *runtime.RemoteObject) (string, error) {
	v := &valueReader{c: c}
	if err := v.write(ctx, r, 0); err != nil {
		return "", err
	}
	out := v.b.String()
	if v.cut > 0 {
		out += fmt.Sprintf("\n[%d items left out: ask for less, e.g. .slice(0, 50) or the fields you need]", v.cut)
	}
	return out, nil
}

func (v *valueReader) write(ctx context.Context, r *runtime.RemoteObject, depth int) error {
	if s, ok := primitive(r); ok {
		v.b.WriteString(s)
		return nil
	}
	desc := ""
	if r.Description != nil {
		desc = *r.Description
	}
	sub := ""
	if r.Subtype != nil {
		sub = *r.Subtype
	}
	switch {
	case r.Type == "function":
		v.str("[function " + strings.TrimPrefix(firstLine(desc), "function ") + "]")
		return nil
	case sub == "node":
		v.str("<" + desc + ">")
		return nil
	case sub == "error", sub == "regexp", sub == "date", sub == "proxy", sub == "promise", sub == "weakmap", sub == "weakset", sub == "weakref",
		sub == "arraybuffer", sub == "dataview", sub == "wasmvalue", sub == "trustedtype", r.ObjectID == nil:
		v.str(firstLine(desc))
		return nil
	}
	if v.circular(ctx, r) {
		v.str("[circular]")
		return nil
	}
	v.path = append(v.path, r)
	defer func() { v.path = v.path[:len(v.path)-1] }()
	v.nodes++
	if depth >= maxValueDepth || v.nodes > maxValueNodes {
		v.cut++
		v.str("[" + desc + "]")
		return nil
	}
	props, err := v.c.Runtime.GetProperties(ctx, runtime.NewGetPropertiesArgs(*r.ObjectID).SetOwnProperties(true))
	if err != nil {
		return fmt.Errorf("read result: %w", err)
	}
	switch sub {
	case "array", "typedarray":
		return v.array(ctx, props.Result, depth)
	case "map", "set":
		return v.entries(ctx, sub, props.InternalProperties, depth)
	}
	return v.object(ctx, props.Result, depth)
}

// circular reports whether r is an object already being written further out.
// Object ids differ each time an object is handed out, so an ancestor that
// looks the same is compared by identity: === in the page's world runs no page
// code (not even a proxy's).
func (v *valueReader) circular(ctx context.Context, r *runtime.RemoteObject) bool {
	for _, a := range v.path {
		if a.Description == nil || r.Description == nil || *a.Description != *r.Description {
			continue
		}
		same, err := v.c.Runtime.CallFunctionOn(ctx, runtime.NewCallFunctionOnArgs(sameSource).
			SetObjectID(*a.ObjectID).SetArguments([]runtime.CallArgument{{ObjectID: r.ObjectID}}).SetReturnByValue(true))
		if err == nil && string(same.Result.Value) == "true" {
			return true
		}
	}
	return false
}

// primitive renders a value that has no object behind it.
func primitive(r *runtime.RemoteObject) (string, bool) {
	switch {
	case r.Type == "undefined":
		return "undefined", true
	case r.UnserializableValue != nil:
		return string(*r.UnserializableValue), true // NaN, Infinity, -0, 10n
	case r.Type == "symbol" && r.Description != nil:
		b, _ := json.Marshal(*r.Description)
		return string(b), true
	case r.ObjectID == nil && len(r.Value) > 0:
		return readableJSON(r.Value), true
	case r.ObjectID == nil && r.Type == "object" && (r.Subtype == nil || *r.Subtype == "null"):
		return "null", true
	}
	return "", false
}

func (v *valueReader) str(s string) {
	enc := json.NewEncoder(&v.b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	v.b.Truncate(v.b.Len() - 1)
}

// item starts the next of a list's items, writing the comma; false when the
// list has reached maxValueItems (the item is counted as left out).
func (v *valueReader) item(n *int) bool {
	if *n == maxValueItems {
		v.cut++
		return false
	}
	if *n > 0 {
		v.b.WriteByte(',')
	}
	*n++
	return true
}

func (v *valueReader) array(ctx context.Context, props []runtime.PropertyDescriptor, depth int) error {
	v.b.WriteByte('[')
	n := 0
	for _, p := range props {
		if _, err := strconv.Atoi(p.Name); err != nil || !v.item(&n) {
			continue // length and named properties, or too many
		}
		if err := v.property(ctx, p, depth); err != nil {
			return err
		}
	}
	v.b.WriteByte(']')
	return nil
}

func (v *valueReader) object(ctx context.Context, props []runtime.PropertyDescriptor, depth int) error {
	v.b.WriteByte('{')
	n := 0
	for _, p := range props {
		if !p.Enumerable || p.Symbol != nil || !v.item(&n) {
			continue
		}
		v.str(p.Name)
		v.b.WriteByte(':')
		if err := v.property(ctx, p, depth); err != nil {
			return err
		}
	}
	v.b.WriteByte('}')
	return nil
}

// property writes a property's value; an accessor is named, never called.
func (v *valueReader) property(ctx context.Context, p runtime.PropertyDescriptor, depth int) error {
	if p.Value == nil {
		v.str("[getter]")
		return nil
	}
	return v.write(ctx, p.Value, depth+1)
}

// entries writes a Map as {"Map": [[key, value], …]} and a Set as {"Set": […]},
// read from their [[Entries]].
func (v *valueReader) entries(ctx context.Context, kind string, internal []runtime.InternalPropertyDescriptor, depth int) error {
	name := strings.ToUpper(kind[:1]) + kind[1:]
	v.b.WriteString(`{"` + name + `":[`)
	for _, ip := range internal {
		if ip.Name != "[[Entries]]" || ip.Value == nil || ip.Value.ObjectID == nil {
			continue
		}
		props, err := v.c.Runtime.GetProperties(ctx, runtime.NewGetPropertiesArgs(*ip.Value.ObjectID).SetOwnProperties(true))
		if err != nil {
			return fmt.Errorf("read result: %w", err)
		}
		n := 0
		for _, p := range props.Result {
			if _, err := strconv.Atoi(p.Name); err != nil || p.Value == nil || p.Value.ObjectID == nil || !v.item(&n) {
				continue
			}
			if err := v.entry(ctx, kind, *p.Value.ObjectID, depth); err != nil {
				return err
			}
		}
	}
	v.b.WriteString("]}")
	return nil
}

// entry writes one internal entry object ({key, value}) of a Map or Set.
func (v *valueReader) entry(ctx context.Context, kind string, id runtime.RemoteObjectID, depth int) error {
	props, err := v.c.Runtime.GetProperties(ctx, runtime.NewGetPropertiesArgs(id).SetOwnProperties(true))
	if err != nil {
		return fmt.Errorf("read result: %w", err)
	}
	var key, val *runtime.RemoteObject
	for _, p := range props.Result {
		switch p.Name {
		case "key":
			key = p.Value
		case "value":
			val = p.Value
		}
	}
	if val == nil {
		return nil
	}
	if kind == "set" || key == nil {
		return v.write(ctx, val, depth+1)
	}
	v.b.WriteByte('[')
	if err := v.write(ctx, key, depth+1); err != nil {
		return err
	}
	v.b.WriteByte(',')
	if err := v.write(ctx, val, depth+1); err != nil {
		return err
	}
	v.b.WriteByte(']')
	return nil
}

// readableJSON re-encodes JSON without escaping non-ASCII text or HTML characters,
// which costs a model fewer tokens and reads better.
func readableJSON(raw json.RawMessage) string {
	if len(raw) > 0 && raw[0] == '"' && bytes.IndexByte(raw, '\\') < 0 {
		return string(raw) // a string without escapes reads as it is (a 10 MB one at once)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return string(raw)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return string(raw)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
