package jobs

import (
	"context"
	"errors"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
)

// errStillLoading is the cause of a load's timeout after the page arrived:
// its document is there to read, unlike that of a page that never arrived
// (the server had not answered), which leaves the tab where it was.
var errStillLoading = errors.New("the page arrived but had not finished loading")

// loaded is a navigation's outcome for a job, which succeeds on load: a page
// that arrived but did not load in time is a timeout caused by
// errStillLoading.
func loaded(fb *feedback.Feedback, err error) error {
	if err == nil && fb.OK && fb.Incomplete != "" {
		return &cdpclient.Error{Code: cdpclient.CodeTimeout, Msg: fb.Incomplete, Hint: fb.Hint, Err: errStillLoading}
	}
	return cdpclient.Outcome(fb, err)
}

// stillLoadingNote is what a reader's result says when it read a page that
// had not finished loading.
const stillLoadingNote = "the page had not finished loading; read what was there"

// readAnyway decides whether a reader goes on after the load of its page
// ended with err (loaded's): only when the page arrived but did not finish
// loading in time (a page that never finishes loading still has a document
// to read), and while ctx, the reader's own time, lasts. A page that never
// arrived has nothing of its own to read: the tab still shows what it showed
// before (about:blank), and reading that would pass it off as the page.
func readAnyway(ctx context.Context, err error) error {
	if err == nil || (errors.Is(err, errStillLoading) && ctx.Err() == nil) {
		return nil
	}
	return err
}
