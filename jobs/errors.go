package jobs

import "fmt"

// InputError is a bad argument to Submit or Extract: nothing was queued. Hint
// says how to fix it.
type InputError struct {
	Msg  string
	Hint string
}

func (e *InputError) Error() string { return e.Msg }

func inputErr(hint, format string, args ...any) *InputError {
	return &InputError{Msg: fmt.Sprintf(format, args...), Hint: hint}
}
