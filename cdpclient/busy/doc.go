// Package busy is the busy watchdog of a page: it tells a page stuck in a
// script (its main thread answers nothing) from one that is only slow on a
// loaded machine, or held by a dialog, or busy with cdpmcp's own sliced
// page-model walk, which reports progress (ProgressBinding). A call under
// Watch.Guard that has gone 2 s without an answer probes the page; a
// page that misses a first probe, and then a longer second one while its
// browser answers at once, is stuck: the call ends with an *Error and the
// page is marked busy, so later calls answer at once (Watch.Check) until it
// answers again or its script is stopped (Watch.StopStuck, before a
// navigation or closing). A page that does not answer because its tab
// waits for a navigation's server is not stuck: Chromium holds every call to
// a tab's renderer from a navigation's start until it commits or ends, so
// such a call ends with a *Navigating (Watch.Guard, Watch.CheckNavigation)
// and the page is not marked. A caller's own script (evaluate) runs without
// the stuck-script watchdog (Watch.GuardNavigation only), under
// ScriptDeadline, and is stopped when it runs out of time (Watch.StopScript,
// a *ScriptTimeout).
//
// It is a library the core (cdpclient) imports, like cdpclient/cdpconn and
// cdpclient/pagelog: it imports only the standard library, never cdpclient,
// and sends nothing to the browser itself: the core hands it a Page, whose
// few calls (a trivial evaluation, the browser's version, the dialog, the
// pending navigation, stopping the script) are the core's.
package busy
