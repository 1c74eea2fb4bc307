// Package cdpclient speaks the Chrome DevTools Protocol: it launches or attaches to
// Chromium, multiplexes page sessions over one websocket, and offers the page
// operations (navigation, input, waits, evaluation, screenshots) that the MCP tools
// are built on. It is the only package that imports mafredri/cdp; it knows nothing
// of MCP.
package cdpclient
