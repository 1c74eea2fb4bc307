// Package capture is what cdpmcp makes of a page as a picture or a print for
// people and models to look at: a screenshot of the viewport, the full page
// or one element, with each ref's number drawn on its box if asked
// (Screenshot), and the page printed to PDF (PDF).
//
// It is a feature on the core: it imports cdpclient's exported API and the
// door cdpclient keeps for features (cdpclient/door.go: Page.Door, Door.Run
// for an operation under the page's rules; doorcapture.go: where an element
// is, and where a frame's viewport starts; doorread.go: the worlds that hold
// refs, where the page model measures their boxes), and cdpclient/pagemodel
// for the refs the latest snapshot shows, or for a snapshot read just before
// the picture under the same hold (ScreenshotOptions.Before), whose walk
// measures the boxes; cdpclient never imports it.
package capture
