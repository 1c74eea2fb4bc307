package browserproc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// ErrRemoteEndpoint is returned (wrapped in a *SetupError) for a non-loopback
// CDP endpoint when remote endpoints are not allowed.
var ErrRemoteEndpoint = errors.New("the CDP endpoint is not on this machine (loopback)")

const endpointHint = "pass --cdp-endpoint as http://127.0.0.1:PORT, PORT being Chrome's --remote-debugging-port, or as its ws:// URL"

// ResolveEndpoint turns a user-given endpoint (--cdp-endpoint) into the
// browser's websocket URL: http(s)://host:port is looked up through
// /json/version; ws(s):// is used as is. An endpoint not on this machine is
// refused unless allowRemote. Its failures are *SetupError, naming the flag to
// fix.
func ResolveEndpoint(ctx context.Context, endpoint string, allowRemote bool) (string, error) {
	u, err := url.Parse(strings.TrimRight(strings.TrimSpace(endpoint), "/"))
	if err != nil || u.Host == "" {
		return "", &SetupError{Msg: fmt.Sprintf("--cdp-endpoint %q is not a URL", endpoint), Hint: endpointHint, Err: err, Permanent: true}
	}
	if !allowRemote && !IsLoopbackHost(u.Hostname()) {
		return "", &SetupError{Msg: fmt.Sprintf("--cdp-endpoint %s: %v", u.Host, ErrRemoteEndpoint), Err: ErrRemoteEndpoint, Permanent: true,
			Hint: "pass --allow-remote-cdp to allow it (anyone who can reach that port controls the browser), or use a loopback endpoint"}
	}
	switch u.Scheme {
	case "ws", "wss":
		return u.String(), nil
	case "http", "https":
	default:
		return "", &SetupError{Msg: fmt.Sprintf("--cdp-endpoint %q: the scheme must be http, https, ws or wss", endpoint), Hint: endpointHint, Permanent: true}
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String()+"/json/version", nil)
	if err != nil {
		return "", &SetupError{Msg: fmt.Sprintf("--cdp-endpoint %q: %v", endpoint, err), Hint: endpointHint, Err: err, Permanent: true}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, context.Canceled) {
			return "", err // the caller gave up
		}
		return "", &SetupError{Msg: fmt.Sprintf("nothing answers at %s (--cdp-endpoint): %v", u.Host, unwrapURLError(err)), Err: err,
			Hint: fmt.Sprintf("start Chrome with --remote-debugging-port=%s (or fix --cdp-endpoint); cdpmcp connects on the next call, no restart needed", portOf(u))}
	}
	defer resp.Body.Close()
	var v struct {
		WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
	}
	notDevTools := func(what string) error {
		return &SetupError{Msg: fmt.Sprintf("%s (--cdp-endpoint) %s: it is not Chrome's DevTools endpoint", u.Host, what),
			Hint: "point --cdp-endpoint at the port Chrome was started with (--remote-debugging-port)"}
	}
	if resp.StatusCode != http.StatusOK {
		return "", notDevTools("answered " + resp.Status + " to /json/version")
	}
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil || v.WebSocketDebuggerURL == "" {
		return "", notDevTools("has no webSocketDebuggerUrl in /json/version")
	}
	ws, err := url.Parse(v.WebSocketDebuggerURL)
	if err != nil {
		return "", notDevTools(fmt.Sprintf("gave a bad websocket URL %q", v.WebSocketDebuggerURL))
	}
	// Chrome names itself by the Host it was asked on; keep the host the user gave.
	ws.Host = u.Host
	return ws.String(), nil
}

// unwrapURLError drops net/http's "Get URL:" prefix, which repeats the address.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// portOf is u's port, or the scheme's default.
func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if u.Scheme == "https" {
		return "443"
	}
	return "80"
}

// IsLoopbackHost reports whether host names this machine: localhost or a loopback
// IP (an IPv6 one in brackets or not).
func IsLoopbackHost(host string) bool {
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// DialError explains a failure to open the websocket of the browser at
// endpoint ("" for one Launch started): for an endpoint the user gave, what to
// fix in --cdp-endpoint (a *SetupError); else a *LaunchError. An error of a
// ctx that ended is returned as it is.
func DialError(ctx context.Context, endpoint string, err error) error {
	if ctx.Err() != nil {
		return err
	}
	if endpoint == "" {
		return &LaunchError{Err: err, Hint: "the browser started but refused its DevTools connection; call again"}
	}
	return &SetupError{Msg: fmt.Sprintf("cannot open the browser's DevTools connection at %s (--cdp-endpoint): %v", endpoint, err), Err: err,
		Hint: "check that Chrome runs with --remote-debugging-port and that --cdp-endpoint names it; cdpmcp tries again on the next call"}
}

// CheckEndpoint reports whether endpoint answers as a browser's DevTools
// endpoint (within ctx), for a server to say at start that it does not. Its
// errors are *SetupError.
func CheckEndpoint(ctx context.Context, endpoint string, allowRemote bool) error {
	ws, err := ResolveEndpoint(ctx, endpoint, allowRemote)
	if err != nil {
		return err
	}
	u, err := url.Parse(ws)
	if err != nil {
		return &SetupError{Msg: fmt.Sprintf("--cdp-endpoint %q is not a URL", endpoint), Hint: endpointHint, Err: err}
	}
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", u.Host)
	if err != nil {
		return &SetupError{Msg: fmt.Sprintf("nothing answers at %s (--cdp-endpoint): %v", u.Host, err), Err: err,
			Hint: "start Chrome with --remote-debugging-port (or fix --cdp-endpoint); cdpmcp connects on the next call, no restart needed"}
	}
	return conn.Close()
}
