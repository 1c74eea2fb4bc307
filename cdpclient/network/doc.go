// Package network is what cdpmcp does with a page's requests beyond the
// core's log of them: one recent request in detail, with its bodies
// (Request), whether a history entry came from a form post (PostedEntry:
// read-only mode refuses to load such an entry again), a HAR 1.2 log of a tab's requests (RecordHAR, for a recording),
// routes that answer a context's requests by URL pattern (AddRoute,
// RemoveRoute, Routes), after the origin rules, and downloads: each
// context's own folder (DownloadDir), the files its pages downloaded
// (Downloads), and in each action's answer the files the action downloaded.
//
// It is a feature on the core: it imports cdpclient's exported API (Page.Tap
// for the page's events) and the doors cdpclient keeps for features
// (cdpclient/door.go, doorhooks.go, doornet.go, doordl.go: Page.Door,
// BrowserContext.Door; OnPageEvents, which Register uses to record each
// page's requests and history entries from the first; AddHooks, which
// Register uses to give each context its download folder, hear the browser's
// download events and add downloads to each action's answer); cdpclient
// never imports it. A program that calls Register (cmd/cdpmcp does, before
// it starts a browser) has download folders per context; one that does not
// leaves downloads to the browser.
package network
