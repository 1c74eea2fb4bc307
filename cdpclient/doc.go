// Package cdpclient speaks the Chrome DevTools Protocol: it launches or attaches to
// Chromium, multiplexes page sessions over one websocket, and offers the page
// operations (navigation, click and hover, refs and the elements they name,
// raw protocol calls) that the MCP tools are built on. It and the feature
// packages under it are the only ones that import mafredri/cdp; it knows
// nothing of MCP.
//
// Features are packages on it (cdpclient/audit, input, eval, find, wait,
// network, pagemodel …): they use its exported API, the one door it keeps
// for them, Page.Door (door.go), and the hooks by which they take part in its
// cycles (AddHooks, doordl.go); it never imports them.
package cdpclient
