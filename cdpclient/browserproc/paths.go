package browserproc

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// FindBrowser returns the executable to launch: path if given, else the first
// browser of browserCandidates found on this machine.
func FindBrowser(path string) (string, error) {
	if path != "" {
		p, err := exec.LookPath(path)
		if err != nil {
			why := "not found"
			switch {
			case errors.Is(err, fs.ErrNotExist):
				why = "no such file"
			case errors.Is(err, fs.ErrPermission):
				why = "not an executable file"
			case errors.Is(err, exec.ErrNotFound):
				why = "not found on PATH"
			}
			return "", &LaunchError{Err: fmt.Errorf("--browser-path %s: %s", path, why), Permanent: true,
				Hint: "pass the path of a Chromium or Chrome executable (e.g. /usr/bin/chromium), or leave --browser-path out to use chromium from PATH"}
		}
		return p, nil
	}
	names, places := browserCandidates(runtime.GOOS, os.Getenv)
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	for _, p := range places {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p, nil
		}
	}
	if len(places) == 0 {
		return "", &LaunchError{Err: fmt.Errorf("no browser found: none of %s is on PATH", strings.Join(names, ", ")), Hint: launchHint, Permanent: true}
	}
	return "", &LaunchError{Err: fmt.Errorf("no browser found: none of %s is on PATH, and Chrome, Chromium and Edge are not in %s", strings.Join(names, ", "), strings.Join(places, ", ")),
		Hint: "install Google Chrome or Chromium, or pass --browser-path", Permanent: true}
}

// executable is the browser Launch starts for opts: opts.Path if given; else,
// for a headless browser on a profile thrown away when it closes, Chromium's
// headless shell if this machine has one (FindHeadlessShell); else the first
// browser FindBrowser finds. A profile that is kept (--user-data-dir, a job's
// named profile) is opened by the full browser that will open it again.
func executable(opts Options) (string, error) {
	throwaway := opts.UserDataDir == "" || opts.Disposable
	if opts.Path == "" && throwaway && (opts.Headless || headlessNeeded()) {
		if shell, ok := FindHeadlessShell(); ok {
			return shell, nil
		}
	}
	return FindBrowser(opts.Path)
}

// FindHeadless returns the browser a headless launch on a throwaway profile
// starts: the headless shell where this machine has one, else the first
// browser FindBrowser finds.
func FindHeadless() (string, error) { return executable(Options{Headless: true}) }

// FindHeadlessAt is FindHeadless with the --browser-path path (empty: look
// for one): what a process that will launch headless browsers checks when it
// starts. Its error is a *LaunchError, Permanent: no try can start a browser
// until the flag or the machine changes.
func FindHeadlessAt(path string) (string, error) {
	return executable(Options{Path: path, Headless: true})
}

// headlessShells are where Chromium's headless shell is found, in order: the
// binary where Debian puts it (its /usr/bin/chromium-headless-shell is a script
// that does not exec it, so the process started would not be the browser),
// then names on PATH: Debian's, and those @puppeteer/browsers and Playwright
// install.
var headlessShells = struct{ places, names []string }{
	places: []string{"/usr/lib/chromium/chromium-headless-shell"},
	names:  []string{"chromium-headless-shell", "chrome-headless-shell", "headless_shell"},
}

// FindHeadlessShell returns Chromium's headless shell if this machine has it:
// the browser without windows, tabs or UI that Chromium's old headless mode
// was. It speaks the same protocol and renders pages alike, for half the CPU
// of a headless full Chromium (most of it the browser process's, which in a
// full Chromium keeps a window and its UI for every tab).
func FindHeadlessShell() (string, bool) {
	for _, p := range headlessShells.places {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p, true
		}
	}
	for _, name := range headlessShells.names {
		if p, err := exec.LookPath(name); err == nil {
			return p, true
		}
	}
	return "", false
}

// IsHeadlessShell says whether the executable exe is a headless shell.
func IsHeadlessShell(exe string) bool {
	return slices.Contains(headlessShells.names, filepath.Base(exe))
}

// browserCandidates are the browsers FindBrowser looks for on goos, in order:
// names on PATH, then the places installers put Chrome, Chromium and Edge
// (absolute paths; env reads the environment, for Windows' folders and HOME).
// Linux installs them on PATH.
func browserCandidates(goos string, env func(string) string) (names, places []string) {
	names = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}
	switch goos {
	case "darwin":
		apps := []string{
			"Google Chrome.app/Contents/MacOS/Google Chrome",
			"Chromium.app/Contents/MacOS/Chromium",
			"Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
			"Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
		}
		for _, app := range apps {
			places = append(places, "/Applications/"+app)
		}
		if home := env("HOME"); home != "" {
			for _, app := range apps {
				places = append(places, filepath.Join(home, "Applications", app))
			}
		}
	case "windows":
		names = []string{"chrome", "chromium", "msedge"}
		// Per machine, then per user (Chrome's installer without admin
		// rights), then Edge, which every Windows has.
		for _, rel := range []struct{ root, path string }{
			{"ProgramFiles", `Google\Chrome\Application\chrome.exe`},
			{"ProgramFiles(x86)", `Google\Chrome\Application\chrome.exe`},
			{"LOCALAPPDATA", `Google\Chrome\Application\chrome.exe`},
			{"LOCALAPPDATA", `Chromium\Application\chrome.exe`},
			{"ProgramFiles(x86)", `Microsoft\Edge\Application\msedge.exe`},
			{"ProgramFiles", `Microsoft\Edge\Application\msedge.exe`},
		} {
			if root := env(rel.root); root != "" {
				places = append(places, root+`\`+rel.path)
			}
		}
	}
	return names, places
}

// launchHint is what to do about a browser that cannot be started.
var launchHint = func() string {
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		return "install Google Chrome or pass --browser-path"
	}
	return "install chromium (apt-get install -y chromium) or pass --browser-path"
}()

// headlessNeeded says whether the browser must run headless on this machine:
// on Linux and the BSDs when there is no X11 or Wayland display. macOS and
// Windows always have a screen to show it on.
func headlessNeeded() bool {
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		return false
	}
	return os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == ""
}
