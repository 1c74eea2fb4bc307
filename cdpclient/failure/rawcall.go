package failure

import (
	"errors"
	"fmt"

	"github.com/mafredri/cdp/rpcc"
)

// RawCallError words the error of a CDP method a caller named (the cdp
// passthrough, a feature's raw call): the browser's refusal of parameters is
// the caller's to fix (an *ArgError), an unknown method or another protocol
// error is NOT_FOUND with the browser's message; any other error (a closed
// connection, the context) is wrapped with the method's name.
func RawCallError(method string, err error) error {
	var re *rpcc.ResponseError
	if !errors.As(err, &re) {
		return fmt.Errorf("%s: %w", method, err)
	}
	msg := fmt.Sprintf("%s: %s", method, re.Message)
	if re.Data != "" {
		msg += " (" + re.Data + ")"
	}
	switch re.Code {
	case -32602: // the parameters: the caller's to fix
		return ArgErrorf("check the parameters' names and types for "+method+" in the DevTools protocol reference", "%s", msg)
	case -32601:
		return &Error{Code: CodeNotFound, Msg: msg, Err: err,
			Hint: "the method does not exist in this browser's protocol; check the domain and method names (e.g. Page.reload)"}
	}
	return &Error{Code: CodeNotFound, Msg: msg, Hint: "check the method name and its parameters in the DevTools protocol reference", Err: err}
}
