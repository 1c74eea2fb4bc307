// Package browserproc is the browser as a process, below the DevTools
// protocol: where it is installed (FindBrowser), the flags a user may add to
// it (UnsafeArgs, NetworkArgs), starting it on its profile with the flags that
// keep it quiet and waiting for its DevTools endpoint (Launch), and ending it
// with what it leaves behind (Process.Close, RemoveSingletonDir); or, for a
// browser someone else started, finding its DevTools websocket from
// --cdp-endpoint and refusing one that is not on this machine
// (ResolveEndpoint, CheckEndpoint). A browser that cannot be started is a
// *LaunchError, an endpoint that cannot be used a *SetupError; each hint names
// what to fix.
//
// It is a library the core (cdpclient) imports, like cdpclient/procgroup: it
// imports the standard library, procgroup and internal/children, never
// cdpclient, and speaks no protocol: the core connects to the endpoint it
// hands over.
package browserproc
