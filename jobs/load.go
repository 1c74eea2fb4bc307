package jobs

import (
	"context"
	"errors"
	"fmt"
	"net/http"

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

// errorPage is the failure of a reader whose page's document the server
// answered with an HTTP error (status >= 400, nil below): what the tab shows
// is the server's error page, not the page asked for, so nothing is read
// from it. Its code is NETWORK_ERROR, as for a navigation that brought no
// document of the page: the server, not the page's content, a selector or
// cdpmcp, is what to look at.
func errorPage(url string, status int) error {
	if status < 400 {
		return nil
	}
	var hint string
	switch status {
	case http.StatusNotFound, http.StatusGone:
		hint = "check the URL: the server has no such page"
	case http.StatusUnauthorized, http.StatusForbidden:
		hint = "the server refused the page: it may need a sign-in (a login job in the same profile first), or refuse this client"
	case http.StatusRequestTimeout, http.StatusTooManyRequests:
		hint = "the server is busy: try again later"
	default:
		hint = "check the URL; if it is right, the server is failing: try again later"
	}
	return &cdpclient.Error{Code: cdpclient.CodeNetworkError, Hint: hint,
		Msg: fmt.Sprintf("the server answered HTTP %d for %s: the page shows the server's error page, and nothing was read from it", status, url)}
}

// documentStatus is the HTTP status of the document a navigation's feedback
// reports, when it is an error (0 otherwise).
func documentStatus(fb *feedback.Feedback) int {
	if fb == nil || fb.Delta == nil {
		return 0
	}
	return fb.Delta.Status
}
