// Package webmcp lists and calls the tools a page registers for agents with
// WebMCP (document.modelContext.registerTool, Chromium 146 and newer behind
// the WebMCPTesting feature, which browsers cdpmcp launches have on): List
// answers each tool's name, description, input schema and whether the page
// says it only reads; Call invokes one through the DevTools protocol's WebMCP
// domain as an action of the action-and-observe cycle, so its answer carries
// the tool's result and what the page did meanwhile. Tools of every frame
// count, out-of-process ones included; each knows its frame's URL, for the
// caller's origin rules.
//
// The WebMCP domain is on in every document session from its start (a
// frame's tools are announced only as they register, never again), which
// costs a page that registers nothing one call as it is set up.
//
// It is a feature on the core: it imports cdpclient's exported API and the
// door (Door.Run in ModeRead and ModeAct, Sessions, CallInWorld; OnPageEvents for the domain's
// events); cdpclient never imports it.
package webmcp
