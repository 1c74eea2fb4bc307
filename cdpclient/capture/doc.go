// Package capture is what cdpmcp makes of a page as a picture or a print for
// people and models to look at: a screenshot of the viewport, the full page
// or one element, with each ref's number drawn on its box if asked
// (Screenshot), and the page printed to PDF (PDF).
//
// It is a feature on the core: it imports cdpclient's exported API and the
// door cdpclient keeps for features (cdpclient/door.go: Page.Door, Door.Do
// for an operation under the page's rules; doorcapture.go: where an element
// is, and the boxes of the refs a snapshot shows); cdpclient never imports it.
package capture
