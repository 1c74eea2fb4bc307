// Package extract fills a JSON schema with what a page states: JSON-LD,
// microdata, x-selector properties, tables, label/value pairs and meta tags.
// It never invents a value: a field the page does not state is left out and
// named in Missing. It is pure: the page's facts come from cdpclient.
package extract

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Schema is the part of a JSON schema extraction reads.
type Schema struct {
	Type       any                `json:"type"`
	Title      string             `json:"title"`
	Properties map[string]*Schema `json:"properties"`
	Items      *Schema            `json:"items"`
	Required   []string           `json:"required"`
	// Selector (x-selector) is a CSS selector whose matches give the value;
	// for an array every match is an item, and an object item's properties'
	// selectors are looked up inside each match.
	Selector string `json:"x-selector"`
	// Attribute (x-attribute) takes the value from this attribute instead of
	// the text (e.g. href, content, datetime).
	Attribute string `json:"x-attribute"`
	// Label (x-label) is the label the page uses for the field ("Warranty"),
	// when it differs from the property name.
	Label string `json:"x-label"`

	order []string // property names in the order the schema gives them
}

// types returns the schema's types ("string", "number"…); a schema with
// properties and no type is an object.
func (s *Schema) types() []string {
	switch t := s.Type.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, v := range t {
			if str, ok := v.(string); ok {
				out = append(out, str)
			}
		}
		return out
	}
	if s.Properties != nil {
		return []string{"object"}
	}
	if s.Items != nil {
		return []string{"array"}
	}
	return nil
}

// is reports whether the schema allows type t.
func (s *Schema) is(t string) bool {
	for _, v := range s.types() {
		if v == t || t == "number" && v == "integer" {
			return true
		}
	}
	return false
}

// main is the schema's first non-null type, "string" when it names none.
func (s *Schema) main() string {
	for _, v := range s.types() {
		if v != "null" {
			return v
		}
	}
	return "string"
}

// ParseSchema reads a schema and the order of its properties.
func ParseSchema(raw json.RawMessage) (*Schema, error) {
	var s Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("not a JSON schema object: %w", err)
	}
	if err := order(raw, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// order records each object schema's property order from the raw JSON, so
// results and notes follow the schema.
func order(raw json.RawMessage, s *Schema) error {
	var probe struct {
		Properties json.RawMessage `json:"properties"`
		Items      json.RawMessage `json:"items"`
	}
	if json.Unmarshal(raw, &probe) != nil {
		return nil
	}
	if len(probe.Properties) > 0 && s.Properties != nil {
		dec := json.NewDecoder(bytes.NewReader(probe.Properties))
		if _, err := dec.Token(); err != nil {
			return nil
		}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return nil
			}
			name, _ := tok.(string)
			var sub json.RawMessage
			if err := dec.Decode(&sub); err != nil {
				return nil
			}
			s.order = append(s.order, name)
			if ps := s.Properties[name]; ps != nil {
				if err := order(sub, ps); err != nil {
					return err
				}
			}
		}
	}
	if len(probe.Items) > 0 && s.Items != nil {
		return order(probe.Items, s.Items)
	}
	return nil
}

// CheckSchema says whether raw is a schema extraction can fill: a valid JSON
// schema for an object with properties.
func CheckSchema(raw json.RawMessage) error {
	s, err := ParseSchema(raw)
	if err != nil {
		return err
	}
	if !s.is("object") {
		return errors.New("the schema must describe an object (\"type\": \"object\")")
	}
	if len(s.Properties) == 0 {
		return errors.New("the schema names no properties: list the fields you want under \"properties\"")
	}
	if _, err := compile(raw); err != nil {
		return err
	}
	return nil
}

func compile(raw json.RawMessage) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	// The schema is the caller's, not a file: it gets a name of its own and
	// no loader, so a $ref cannot read this machine's files.
	c := jsonschema.NewCompiler()
	c.UseLoader(jsonschema.SchemeURLLoader{})
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("not a valid JSON schema: %w", err)
	}
	sch, err := c.Compile(schemaURL)
	if err != nil {
		var se *jsonschema.SchemaValidationError
		if errors.As(err, &se) {
			err = se.Err
		}
		return nil, fmt.Errorf("not a valid JSON schema: %s", problems(err))
	}
	return sch, nil
}

// schemaURL names the caller's schema inside the compiler.
const schemaURL = "urn:cdpmcp:schema"

// problems says what a validation error's leaves say ("at '/price': minimum:
// got 1, want 3"), without the library's first line, which names the schema
// by its URL; another error, its first line.
func problems(err error) string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		msg, _, _ := strings.Cut(err.Error(), "\n")
		return msg
	}
	var leaves []string
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			leaves = append(leaves, e.Error())
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return strings.Join(leaves, "; ")
}
