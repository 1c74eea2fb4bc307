package cdpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// ErrRemoteEndpoint is returned for a non-loopback CDP endpoint when remote
// endpoints are not allowed.
var ErrRemoteEndpoint = fmt.Errorf("CDP endpoint is not on this machine (loopback); pass --allow-remote-cdp to allow it")

// resolveEndpoint turns a user-given endpoint into the browser websocket URL.
// http(s)://host:port is looked up through /json/version; ws(s):// is used as is.
func resolveEndpoint(ctx context.Context, endpoint string, allowRemote bool) (string, error) {
	u, err := url.Parse(strings.TrimRight(strings.TrimSpace(endpoint), "/"))
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("CDP endpoint %q is not a URL like http://127.0.0.1:9222 or ws://127.0.0.1:9222/devtools/browser/…", endpoint)
	}
	if !allowRemote && !IsLoopbackHost(u.Hostname()) {
		return "", fmt.Errorf("%w: %s", ErrRemoteEndpoint, u.Host)
	}
	switch u.Scheme {
	case "ws", "wss":
		return u.String(), nil
	case "http", "https":
	default:
		return "", fmt.Errorf("CDP endpoint %q: scheme must be http, https, ws or wss", endpoint)
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String()+"/json/version", nil)
	if err != nil {
		return "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("CDP endpoint %s does not answer (is Chrome running with --remote-debugging-port?): %w", u.Host, err)
	}
	defer resp.Body.Close()
	var v struct {
		WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("CDP endpoint %s/json/version answered %s", u.Host, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil || v.WebSocketDebuggerURL == "" {
		return "", fmt.Errorf("CDP endpoint %s/json/version has no webSocketDebuggerUrl", u.Host)
	}
	ws, err := url.Parse(v.WebSocketDebuggerURL)
	if err != nil {
		return "", fmt.Errorf("CDP endpoint gave a bad websocket URL %q", v.WebSocketDebuggerURL)
	}
	// Chrome names itself by the Host it was asked on; keep the host the user gave.
	ws.Host = u.Host
	return ws.String(), nil
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
