// Package permissions grants a browser context, without a prompt, what a page
// would ask its user for (geolocation, notifications, the clipboard, MIDI,
// sensors, …) and takes it back: names as the web's Permissions API spells
// them (Parse), granted to an origin or to all (Grant), every grant taken
// back and the server's own (--grant-permissions) given again (Reset), and
// the server's grants in every context it sets up (Setup).
//
// Grants are the browser's (Browser.grantPermissions): they hold for the
// context while cdpmcp is connected, in an attached browser too, and end
// with the context or the connection.
//
// It is a feature on the core: it imports cdpclient's exported API; cdpclient
// never imports it.
package permissions
