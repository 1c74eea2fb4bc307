// Package find is the find tool: the lines of the page model that match a
// text, or a role and an accessible name (as a person names an element:
// "button Save"), with the heading each sits under and, if asked, where each
// element is on screen, without the rest of the snapshot (Find). Their refs
// work as a snapshot's do; text the snapshot shows as context is handed refs
// of the elements that show it, so it can be acted on.
//
// It is a feature on the core: it imports cdpclient's exported API and the
// door cdpclient keeps for features (cdpclient/doorrun.go: Door.Run for an
// operation under the page's rules; doorread.go: the page model's lines, the
// worlds that hold refs, an element's box), never cdpclient's internals, and
// cdpclient never imports it. Its page function is its own (js/find.js).
package find
