// Package eval is the evaluate tool: a JavaScript expression, or a function
// of one element, run in the page's main frame, and its value read back as
// JSON without running page code (Evaluate). What JSON cannot carry is
// written as JavaScript prints it or described; big values are cut with a
// count of what was left out. In read-only mode an expression that may
// change the page is refused.
//
// It is a feature on the core: it imports cdpclient's exported API and the
// door cdpclient keeps for features (cdpclient/doorrun.go: Door.Run in ModeScript runs
// the caller's script under the page's rules without the busy watchdog and
// stops one that runs out of time; Door.Group, Element.MainWorld and
// Element.Gone for an expression on an element), never cdpclient's
// internals, and cdpclient never imports it. Its page function is its own
// (js/value.js).
package eval
