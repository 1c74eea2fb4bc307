// Package browserproc is the browser as a process, below the DevTools
// protocol: the flags a user may add to it (UnsafeArgs, NetworkArgs).
//
// It is a library the core (cdpclient) imports, like cdpclient/procgroup: it
// imports the standard library, procgroup and internal/children, never
// cdpclient, and speaks no protocol.
package browserproc
