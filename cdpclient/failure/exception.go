package failure

import (
	"strings"

	"github.com/mafredri/cdp/protocol/runtime"
)

// ExceptionText is the first line of a thrown exception, as cdpclient words
// it in its errors.
func ExceptionText(d *runtime.ExceptionDetails) string {
	if d.Exception != nil && d.Exception.Description != nil {
		line, _, _ := strings.Cut(*d.Exception.Description, "\n")
		return line
	}
	if d.Exception != nil && len(d.Exception.Value) > 0 {
		return string(d.Exception.Value)
	}
	return d.Text
}

// SelectorError is the argument error for an exception the page function
// query threw because selector is not valid CSS; nil for any other
// exception.
func SelectorError(selector string, exc *runtime.ExceptionDetails) error {
	msg := ExceptionText(exc)
	if !strings.Contains(msg, "SyntaxError") && !strings.Contains(msg, "not a valid selector") {
		return nil
	}
	return ArgErrorf("use a CSS selector such as #id, .class, button[type=submit] or form input[name=q]",
		"%q is not a valid CSS selector", selector)
}
