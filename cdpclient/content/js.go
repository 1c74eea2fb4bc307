package content

import (
	"embed"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/jsfunc"
)

//go:embed js/*.js
var jsFiles embed.FS

// contentSource is the page function content (js/content.js) with the
// core's query, which finds a selector's element through open shadow roots
// as the core's own selectors do, the core's shownRules, the rule the page
// model reads a page by (what a person sees), and absoluteLinks, which writes
// each link's address as the browser resolves it.
var contentSource = func() string {
	s := jsfunc.Load(jsFiles, "js")
	s["query"] = cdpclient.PageFunc("query")
	s["shownRules"] = cdpclient.PageFunc("shownRules")
	return s.With("content", "query", "shownHTML", "shownRules", "absoluteLinks")
}()
