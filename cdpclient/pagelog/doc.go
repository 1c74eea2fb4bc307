// Package pagelog is a page's logs: its recent console messages and uncaught
// exceptions (ConsoleEntry) and its requests (NetworkEntry), built from the
// DevTools events of the page's sessions (Log.OnEvent), with a sequence
// number to read what came after a mark (Mark, Console, Network), count the
// requests still waiting for an answer (Pending), and remember which console
// errors feedback has reported (Reported, MarkReported), and say why the
// origin rules refused a request (Refuse, Refusal, LastRefusal), which the
// browser reports only as blocked. It keeps the last 500 console entries
// and 1,000 requests.
//
// It is a library the core (cdpclient) imports, like cdpclient/cdpconn: it
// imports only the standard library, never cdpclient, and sends nothing to
// the browser: the core hands it the events of each page's sessions, and
// callers read a page's entries through the core (Page.ConsoleEntries,
// NetworkEntries, Door.Logs).
package pagelog
