// Package cdpclient speaks the Chrome DevTools Protocol: it launches or attaches to
// Chromium, multiplexes page sessions over one websocket, and offers the page
// operations (navigation, click and hover, refs and the elements they name,
// raw protocol calls) that the MCP tools are built on. It and the feature
// packages under it are the only ones that import mafredri/cdp; it knows
// nothing of MCP.
//
// Its API, beside small accessors (ids, a launched browser's PID and
// profile, the origin policy) and the door's names:
//
//   - A browser: Connect (launch or attach), NewManager (one browser, launched
//     again when it dies); Browser.NewContext, Default, Alive, Done, Close,
//     Shutdown, Raw; CheckNavigation and CheckURL (the origin rules).
//   - A browser context (a session's cookies, storage and tabs):
//     BrowserContext.NewPage, Pages, Page, Current, SetCurrent, OnPage, Close.
//   - A tab: Page.Navigate, Reload, GoBack, GoForward (navigation, with
//     feedback); Click, Hover (actions, with feedback); Resolve (a ref or
//     selector to its element); Dialog, HandleDialog; URL, Title,
//     DocumentTitle, ConsoleEntries, NetworkEntries; Activate, Close,
//     Usable; Raw (one protocol call on the page's session).
//   - Errors: Classify (every failure to one code and hint), Outcome.
//
// Features are packages on it (cdpclient/audit, input, eval, find, wait,
// network, pagemodel …): they use that API, the one door it keeps for them,
// Page.Door (door.go), and the hooks by which they take part in its cycles
// (AddHooks, doordl.go); it never imports them.
//
// Below it, libraries it is built from that never import it: the wire
// (cdpconn), the browser process (browserproc), its errors (failure), and
// a page's state fed by its events (navstate, jsdialog, worldmap, reftable,
// actionlock, tablife, wakeup, featureslots, pagelog, busy), the request
// guard (fetchguard), the URL checks (navcheck), where a click lands
// (hittest) and leaving a page past its dialogs (leaving); what an answer
// says is feedback's.
package cdpclient
