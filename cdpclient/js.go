package cdpclient

import (
	"embed"

	"github.com/cdpmcp/cdpmcp/cdpclient/jsfunc"
)

//go:embed js/*.js
var jsFiles embed.FS

// jsFuncs maps a function name to its source text, taken from the top-level
// "function name(" declarations of the embedded js/*.js files.
var jsFuncs = jsfunc.Load(jsFiles, "js")

// PageFunc is the source of one of the core's page functions (state), for a
// feature to compose with its own. A missing name is a programming error.
func PageFunc(name string) string { return jsFuncs.Func(name) }

// jsWith returns page function main with the named helper functions in its scope.
func jsWith(main string, helpers ...string) string { return jsFuncs.With(main, helpers...) }
