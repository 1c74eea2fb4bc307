package failure

import (
	"testing"

	"github.com/mafredri/cdp/protocol/runtime"
)

// An exception is worded by the first line of its description, else its
// value, else the details' text.
func TestExceptionText(t *testing.T) {
	desc := "TypeError: x is null\n    at f (page.js:1:2)"
	for _, c := range []struct {
		d    runtime.ExceptionDetails
		want string
	}{
		{runtime.ExceptionDetails{Text: "Uncaught", Exception: &runtime.RemoteObject{Description: &desc}}, "TypeError: x is null"},
		{runtime.ExceptionDetails{Text: "Uncaught", Exception: &runtime.RemoteObject{Value: []byte(`"boom"`)}}, `"boom"`},
		{runtime.ExceptionDetails{Text: "Uncaught"}, "Uncaught"},
	} {
		if got := ExceptionText(&c.d); got != c.want {
			t.Errorf("ExceptionText = %q, want %q", got, c.want)
		}
	}
}
