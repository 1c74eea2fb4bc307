// Package capture is what cdpmcp makes of a page as a file for people to
// look at: a PDF of it printed (PDF).
//
// It is a feature on the core: it imports cdpclient's exported API and the
// door cdpclient keeps for features (cdpclient/door.go: Page.Door, Door.Do
// for an operation under the page's rules); cdpclient never imports it.
package capture
