// Package network is what cdpmcp does with a page's requests beyond the
// core's log of them: one recent request in detail, with its bodies
// (Request), whether a history entry came from a form post (PostedEntry:
// read-only mode refuses to load such an entry again), a HAR 1.2 log of a tab's requests (RecordHAR, for a recording)
// and routes that answer a context's requests by URL pattern (AddRoute,
// RemoveRoute, Routes), after the origin rules.
//
// It is a feature on the core: it imports cdpclient's exported API (Page.Tap
// for the page's events) and the doors cdpclient keeps for features
// (cdpclient/door.go, doorhooks.go, doornet.go: Page.Door, BrowserContext.Door,
// and OnPageEvents, which its init uses to record each page's requests and
// history entries from the first); cdpclient never imports it.
package network
