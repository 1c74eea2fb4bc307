package browserproc

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// Auto-connect: a Chrome the user runs writes DevToolsActivePort into its
// profile folder while it accepts DevTools connections: started with
// --remote-debugging-port, or, from Chrome 144, with remote debugging turned
// on at chrome://inspect/#remote-debugging (then Chrome asks the user to
// allow each connection). AutoConnect finds that file in the usual profile
// folders and connects to the port it names, without a restart of Chrome.

// autoConnectHint says what the user must turn on.
const autoConnectHint = "in Chrome (144 or newer) open chrome://inspect/#remote-debugging and turn on remote debugging for this browser, " +
	"then allow cdpmcp's connection when Chrome asks; or start Chrome with --remote-debugging-port=9222 and pass --cdp-endpoint http://127.0.0.1:9222. " +
	"cdpmcp looks again on the next call, no restart needed"

// AutoConnect finds a running Chrome or Chromium that accepts DevTools
// connections and returns its websocket URL and its profile folder. dir, if
// not empty (--user-data-dir), is the one profile folder to look in; else
// the usual ones of this system (ProfileDirs), Chrome's channels before
// Chromium, the first whose port answers. Its failures are *SetupError
// saying what the user must turn on.
func AutoConnect(ctx context.Context, dir string) (ws, profile string, err error) {
	dirs := []string{dir}
	if dir == "" {
		dirs = ProfileDirs(runtime.GOOS, os.Getenv)
	}
	var stale []string
	for _, d := range dirs {
		port, path, ok := readActivePort(filepath.Join(d, "DevToolsActivePort"))
		if !ok {
			continue
		}
		addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
		c, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
		if err != nil {
			if ctx.Err() != nil {
				return "", "", ctx.Err()
			}
			stale = append(stale, fmt.Sprintf("%s names port %d, where nothing answers", d, port))
			continue
		}
		_ = c.Close()
		return "ws://" + addr + path, d, nil
	}
	looked := strings.Join(dirs, ", ")
	if len(stale) > 0 {
		return "", "", &SetupError{Msg: "--auto-connect: Chrome is not accepting DevTools connections now (" + strings.Join(stale, "; ") +
			": it was closed, or remote debugging was turned off)", Hint: autoConnectHint}
	}
	return "", "", &SetupError{Msg: "--auto-connect: no running Chrome or Chromium accepts DevTools connections (no DevToolsActivePort in " + looked + ")",
		Hint: autoConnectHint}
}

// readActivePort reads a DevToolsActivePort file: the port on its first
// line, the browser's websocket path on its second.
func readActivePort(file string) (port int, path string, ok bool) {
	b, err := os.ReadFile(file)
	if err != nil {
		return 0, "", false
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) < 2 {
		return 0, "", false
	}
	port, err = strconv.Atoi(strings.TrimSpace(lines[0]))
	path = strings.TrimSpace(lines[1])
	if err != nil || port <= 0 || port > 65535 || !strings.HasPrefix(path, "/devtools/browser/") {
		return 0, "", false
	}
	return port, path, true
}

// ProfileDirs are the profile folders (user data directories) of Chrome's
// channels and Chromium on goos, in the order AutoConnect tries them; env
// reads the environment (HOME, XDG_CONFIG_HOME, LOCALAPPDATA).
func ProfileDirs(goos string, env func(string) string) []string {
	home := env("HOME")
	var out []string
	add := func(base string, rel ...string) {
		if base != "" {
			out = append(out, filepath.Join(append([]string{base}, rel...)...))
		}
	}
	switch goos {
	case "darwin":
		if home != "" {
			support := filepath.Join(home, "Library", "Application Support")
			for _, d := range []string{"Google/Chrome", "Google/Chrome Beta", "Google/Chrome Dev", "Google/Chrome Canary", "Chromium"} {
				add(support, strings.Split(d, "/")...)
			}
		}
	case "windows":
		// Windows paths are joined with backslashes whatever this binary
		// was built for.
		if local := env("LOCALAPPDATA"); local != "" {
			for _, d := range []string{`Google\Chrome`, `Google\Chrome Beta`, `Google\Chrome Dev`, `Google\Chrome SxS`, `Chromium`} {
				out = append(out, local+`\`+d+`\User Data`)
			}
		}
	default:
		config := env("XDG_CONFIG_HOME")
		if config == "" && home != "" {
			config = filepath.Join(home, ".config")
		}
		for _, d := range []string{"google-chrome", "google-chrome-beta", "google-chrome-unstable", "google-chrome-canary", "chromium"} {
			add(config, d)
		}
		add(home, "snap", "chromium", "common", "chromium")
		add(home, ".var", "app", "com.google.Chrome", "config", "google-chrome")
		add(home, ".var", "app", "org.chromium.Chromium", "config", "chromium")
	}
	return out
}
