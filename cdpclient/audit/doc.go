// Package audit is cdpmcp's audits of a page or a site: accessibility
// (Accessibility), performance (Performance: a traced load, or the page's own
// timeline), security (Security) and links (Links, a crawl). Each returns a
// report of findings, ranked by severity, that the auditing tools of package
// actions render.
//
// The audits read a page the way the read-only tools do: through the
// protocol (accessibility tree, tracing, network and security events,
// cookies) and through page functions of their own (js/*.js) in cdpmcp's
// isolated world. None runs page code, changes the DOM or hands the page
// input; the crawl opens pages with GET navigations only.
//
// It is a feature on the core: it imports cdpclient's exported API and the
// door cdpclient keeps for features (cdpclient/door.go: Page.Door, World,
// Browser.EgressProxy), cdpclient's leaf packages (feedback, jsfunc,
// origins, secrets) and the network feature (cdpclient/network: what a
// document's response said, for the security audit); cdpclient never imports
// it.
package audit
