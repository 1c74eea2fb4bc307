package webmcp

import "sync"

var registered sync.Once

// Register sets the feature up on every browser started after it: the WebMCP
// domain turned on in each context's document sessions from their start and
// its events recorded for each page (events.go). A program calls it once,
// before it starts a browser: cmd/cdpmcp does, as does the TestMain of each
// test binary that drives a browser through the feature; later calls do
// nothing. Without it, the tools a page registers go unheard.
func Register() { registered.Do(register) }
