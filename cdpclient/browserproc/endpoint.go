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
// /json/version (sending header, the --cdp-header values); ws(s):// is used
// as is. An endpoint not on this machine is refused unless allowRemote. Its
// failures are *SetupError, naming the flag to fix; they show the endpoint
// as DisplayEndpoint does, never a header.
func ResolveEndpoint(ctx context.Context, endpoint string, allowRemote bool, header http.Header) (string, error) {
	u, err := url.Parse(strings.TrimRight(strings.TrimSpace(endpoint), "/"))
	if err != nil || u.Host == "" {
		return "", &SetupError{Msg: fmt.Sprintf("--cdp-endpoint %q is not a URL", DisplayEndpoint(endpoint)), Hint: endpointHint, Err: err, Permanent: true}
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
		return "", &SetupError{Msg: fmt.Sprintf("--cdp-endpoint %q: the scheme must be http, https, ws or wss", DisplayEndpoint(endpoint)), Hint: endpointHint, Permanent: true}
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	version := *u
	version.Path += "/json/version"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, version.String(), nil)
	if err != nil {
		return "", &SetupError{Msg: fmt.Sprintf("--cdp-endpoint %q: %v", DisplayEndpoint(endpoint), err), Hint: endpointHint, Err: err, Permanent: true}
	}
	for name, values := range header {
		req.Header[name] = values
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
	if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
		return "", refused(u.Host+" (--cdp-endpoint)", resp.Status, len(header) > 0)
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
	// Chrome names itself by the Host it was asked on; keep the host the user
	// gave, and its scheme: a service behind TLS (https) speaks wss.
	ws.Host = u.Host
	if u.Scheme == "https" {
		ws.Scheme = "wss"
	}
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
	if u.Scheme == "https" || u.Scheme == "wss" {
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
// ctx that ended is returned as it is. withHeader says --cdp-header values
// were sent, for the hint of an endpoint that refused them.
func DialError(ctx context.Context, endpoint string, err error, withHeader bool) error {
	if ctx.Err() != nil {
		return err
	}
	if endpoint == "" {
		return &LaunchError{Err: err, Hint: "the browser started but refused its DevTools connection; call again"}
	}
	var status interface{ HandshakeStatus() (int, string) }
	if errors.As(err, &status) {
		if code, text := status.HandshakeStatus(); code == http.StatusUnauthorized || code == http.StatusForbidden {
			return refused(DisplayEndpoint(endpoint), text, withHeader)
		}
	}
	return &SetupError{Msg: fmt.Sprintf("cannot open the browser's DevTools connection at %s (--cdp-endpoint): %v", DisplayEndpoint(endpoint), err), Err: err,
		Hint: "check that Chrome runs with --remote-debugging-port and that --cdp-endpoint names it; cdpmcp tries again on the next call"}
}

// refused is the error of an endpoint that answered 401 or 403: a browser
// service that wants a token (Browserless, Browserbase, Steel, …). Trying
// again with the same flags cannot help.
func refused(where, status string, withHeader bool) error {
	hint := "the service wants credentials: pass them as it asks, e.g. --cdp-header 'Authorization: Bearer TOKEN' (or CDPMCP_CDP_HEADER), or a token in the URL"
	if withHeader {
		hint = "the service did not take the --cdp-header values sent: check their names and values (CDPMCP_CDP_HEADER too), or whether it wants a token in the URL instead"
	}
	return &SetupError{Msg: fmt.Sprintf("%s refused the connection: %s", where, status), Hint: hint, Permanent: true}
}

// DisplayEndpoint is an endpoint as messages and logs show it: the values of
// its query (a browser service's ?token=…) and a password in it hidden.
func DisplayEndpoint(endpoint string) string {
	u, err := url.Parse(strings.TrimSpace(endpoint))
	if err != nil || u.Host == "" {
		return endpoint
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "***")
	}
	if u.RawQuery != "" {
		q := u.Query()
		for k := range q {
			q[k] = []string{"***"}
		}
		u.RawQuery = q.Encode()
	}
	return strings.ReplaceAll(u.String(), "%2A", "*")
}

// CheckEndpoint reports whether endpoint answers as a browser's DevTools
// endpoint (within ctx), for a server to say at start that it does not. Its
// errors are *SetupError.
func CheckEndpoint(ctx context.Context, endpoint string, allowRemote bool, header http.Header) error {
	ws, err := ResolveEndpoint(ctx, endpoint, allowRemote, header)
	if err != nil {
		return err
	}
	u, err := url.Parse(ws)
	if err != nil {
		return &SetupError{Msg: fmt.Sprintf("--cdp-endpoint %q is not a URL", DisplayEndpoint(endpoint)), Hint: endpointHint, Err: err}
	}
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", net.JoinHostPort(u.Hostname(), portOf(u)))
	if err != nil {
		return &SetupError{Msg: fmt.Sprintf("nothing answers at %s (--cdp-endpoint): %v", u.Host, err), Err: err,
			Hint: "start Chrome with --remote-debugging-port (or fix --cdp-endpoint); cdpmcp connects on the next call, no restart needed"}
	}
	return conn.Close()
}
