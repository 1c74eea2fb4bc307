package agentloop

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// fargs are the model's arguments to one function.
type fargs map[string]json.RawMessage

func (a fargs) str(k string) string {
	var s string
	if json.Unmarshal(a[k], &s) == nil {
		return s
	}
	if raw, ok := a[k]; ok && len(raw) > 0 && raw[0] != '"' && string(raw) != "null" {
		return string(raw) // a number or true where text was meant
	}
	return ""
}

func (a fargs) int(k string) int {
	var n float64
	if json.Unmarshal(a[k], &n) == nil {
		return int(n)
	}
	n2, _ := strconv.Atoi(strings.TrimSpace(a.str(k)))
	return n2
}

func (a fargs) bool(k string) bool {
	var v bool
	if json.Unmarshal(a[k], &v) == nil {
		return v
	}
	return a.str(k) == "true"
}

func (a fargs) strs(k string) []string {
	var list []string
	if json.Unmarshal(a[k], &list) == nil {
		return list
	}
	if s := a.str(k); s != "" {
		return []string{s}
	}
	return nil
}

// need reports a required argument the model left out.
func (a fargs) need(k string) error {
	if raw, ok := a[k]; ok && string(raw) != "null" && string(raw) != `""` {
		return nil
	}
	return &stepError{fmt.Sprintf("argument %q is required", k)}
}
