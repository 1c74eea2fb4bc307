package eval

import (
	"embed"

	"github.com/cdpmcp/cdpmcp/cdpclient/jsfunc"
)

//go:embed js/*.js
var jsFiles embed.FS

// sameSource is the page function same (js/value.js): whether an object is
// this very one, asked without running page code.
var sameSource = jsfunc.Load(jsFiles, "js").Func("same")
