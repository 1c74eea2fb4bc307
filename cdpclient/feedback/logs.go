package feedback

import (
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient/pagelog"
)

// What an action's answer says of the page's logs (cdpclient/pagelog) since
// the action began: its errors, the document it led to, its requests.

// ConsoleErrors are the page's errors among the console entries: uncaught
// exceptions and console.error calls. Failed loads are left to the network
// summary.
func ConsoleErrors(entries []pagelog.ConsoleEntry) []string {
	var msgs []string
	for _, e := range entries {
		if e.Level == "error" && !e.Network {
			msgs = append(msgs, e.Text)
		}
	}
	return msgs
}

// Document is the last main-frame document request among the requests (main
// says which are), if any.
func Document(reqs []pagelog.NetworkEntry, main func(pagelog.NetworkEntry) bool) *pagelog.NetworkEntry {
	var doc *pagelog.NetworkEntry
	for _, e := range reqs {
		if main(e) {
			doc = &e
		}
	}
	return doc
}

// Requests are an action's requests for the summary (main says which are
// main-frame documents, refusal why the origin rules refused a URL), and the
// main-frame document the origin policy refused when that was the first
// document the action asked for (then it brought no page; a page that
// arrived and then tried to leave for a refused origin is a page that
// arrived). dropHops leaves out the redirects on the way: a click that
// lands on a new page, whose new URL shows where it went.
func Requests(reqs []pagelog.NetworkEntry, main func(pagelog.NetworkEntry) bool, refusal func(url string) (string, bool),
	dropHops bool) ([]Request, *pagelog.NetworkEntry) {
	var out []Request
	var refused *pagelog.NetworkEntry
	firstDoc := true
	for _, e := range reqs {
		isMain := main(e)
		if why, ok := refusal(e.URL); ok && strings.HasPrefix(e.Failed, BlockedByClient) {
			e.Blocked = why
			if isMain && firstDoc {
				refused = &e
			}
		}
		if isMain && !redirectHop(e) {
			firstDoc = false
		}
		if dropHops && redirectHop(e) {
			continue
		}
		if answeredThenDropped(e) {
			e.Failed = ""
		}
		out = append(out, Request{Method: e.Method, URL: e.URL, Type: e.Type, Status: e.Status,
			Failed: e.Failed, Blocked: e.Blocked, Pending: !e.Done && e.Status == 0, Main: isMain})
	}
	return out, refused
}

// BlockedByClient is how Chromium reports a request the guard refused.
const BlockedByClient = "net::ERR_BLOCKED_BY_CLIENT"

// redirectHop is a document request answered with a redirect: a step of the
// navigation whose end the feedback shows as the new URL. A navigate keeps it:
// there it says why the page is not at the URL asked for.
func redirectHop(e pagelog.NetworkEntry) bool {
	return e.Type == "Document" && e.Status >= 300 && e.Status < 400 && e.Failed == "" && e.Blocked == ""
}

// answeredThenDropped is a call the server answered (below 400) that
// Chromium then ends as net::ERR_ABORTED: a 204 or a body the page never
// read. The page had its answer; nothing failed. (A document aborted is
// another thing, a download: its error stays.)
func answeredThenDropped(e pagelog.NetworkEntry) bool {
	return (e.Type == "Fetch" || e.Type == "XHR") && e.Status > 0 && e.Status < 400 && e.Failed == "net::ERR_ABORTED"
}
