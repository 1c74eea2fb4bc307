// Package navstate is where a tab's main frame is and has been, as its
// CDP events tell it: the address and title of its target info, its
// documents and their lifecycle events, its loads, the navigations it asked
// for and the tabs it opened, counted so that an action tells what it set off
// (Mark, then Loaded, Moved, LoadingSince).
//
// It is a library the core (cdpclient) imports: it sends nothing to the
// browser, only reads the events the core hands it (State.OnEvent), and
// never imports cdpclient.
package navstate
