package failure

import "github.com/cdpmcp/cdpmcp/cdpclient/feedback"

// Outcome turns an action's answer into an error for callers that only need to
// know whether it happened (the job horde): nil when it did, an *Error with the
// feedback's code, message and hint when it did not.
func Outcome(fb *feedback.Feedback, err error) error {
	if err != nil || fb.OK {
		return err
	}
	return &Error{Code: Code(fb.Code), Msg: fb.Msg, Hint: fb.Hint, Ref: fb.Ref}
}
