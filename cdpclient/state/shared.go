package state

import (
	"embed"
	"fmt"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/jsfunc"
)

//go:embed js/*.js
var jsFiles embed.FS

// jsFuncs are the package's page functions (js/*.js).
var jsFuncs = jsfunc.Load(jsFiles, "js")

// argError reports an argument the caller must fix, with the hint that fixes it.
func argError(hint, format string, args ...any) *cdpclient.ArgError {
	return &cdpclient.ArgError{Msg: fmt.Sprintf(format, args...), Hint: hint}
}
