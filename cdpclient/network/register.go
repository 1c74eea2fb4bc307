package network

import "sync"

var registered sync.Once

// Register sets the feature up on every browser started after it: each
// context's download folder, the browser's download events heard and each
// action's downloads added to its answer (downloads.go), and each page's
// posted history entries, requests and documents' responses recorded from its
// first event (entryposts.go, requestlog.go, responses.go). A program calls it
// once, before it starts a browser: cmd/cdpmcp does, as does the TestMain of
// each test binary that drives a browser through the feature; later calls do
// nothing. Without it, downloads are left to the browser and Request finds
// no request.
func Register() {
	registered.Do(func() {
		registerDownloads()
		registerEntryPosts()
		registerRequestLog()
		registerResponses()
	})
}
