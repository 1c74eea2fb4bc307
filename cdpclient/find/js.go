package find

import (
	"embed"

	"github.com/cdpmcp/cdpmcp/cdpclient/jsfunc"
)

//go:embed js/*.js
var jsFiles embed.FS

// funcs are find's page functions (js/*.js).
var funcs = jsfunc.Load(jsFiles, "js")
