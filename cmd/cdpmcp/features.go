package main

import (
	"github.com/cdpmcp/cdpmcp/cdpclient/input"
	"github.com/cdpmcp/cdpmcp/cdpclient/network"
	"github.com/cdpmcp/cdpmcp/cdpclient/webmcp"
)

// registerFeatures sets up, before any browser starts, the features that
// watch every page and context of it (the core never imports them): the
// network feature (requests, documents' responses, posted history entries,
// downloads), WebMCP (the tools pages register) and uploads through a file
// chooser. main calls it first.
func registerFeatures() {
	network.Register()
	webmcp.Register()
	input.Register()
}
