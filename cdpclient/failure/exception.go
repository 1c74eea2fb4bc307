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
