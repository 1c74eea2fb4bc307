// Package wait is the waitFor tool: waiting until an element (by selector or
// ref) or a text is visible, attached, hidden or detached, following the
// page across navigations, and answering with what the page did meanwhile
// (For).
//
// It is a feature on the core: it imports cdpclient's exported API and the
// door cdpclient keeps for features (cdpclient/doorrun.go: Door.Run, in
// ModeWait for the wait, run through the action-and-observe cycle, and in
// ModeRead for each check under the page's rules; doorread.go:
// Door.CallInWorld for its page function in cdpmcp's world, SelectorError), never cdpclient's internals,
// and cdpclient never imports it. Its page function is its own
// (js/wait.js), with the core's query.
package wait
