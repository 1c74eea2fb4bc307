// Package content is the getContent tool: a page, or one element of it, as
// its HTML as it is now, as its main content in Markdown (found by
// Readability, cdpclient/reader) or as plain text (Get).
//
// It is a feature on the core: it imports cdpclient's exported API and the
// door cdpclient keeps for features (cdpclient/doorrun.go: Door.Run for an
// operation under the page's rules, Door.World for cdpmcp's isolated world
// of the main frame; doorread.go: SelectorError, a selector the page
// refused), never cdpclient's internals, and cdpclient never imports it. Its
// page function is its own (js/content.js), with the core's query.
package content
