package live

import (
	"embed"

	"github.com/cdpmcp/cdpmcp/cdpclient/jsfunc"
)

//go:embed js/*.js
var jsFiles embed.FS

// jsFuncs are the package's page functions (js/*.js).
var jsFuncs = jsfunc.Load(jsFiles, "js")
