package browserproc

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBrowserCandidates(t *testing.T) {
	t.Parallel()
	env := map[string]string{
		"HOME":         "/Users/ada",
		"ProgramFiles": `C:\Program Files`,
		"LOCALAPPDATA": `C:\Users\ada\AppData\Local`,
		// ProgramFiles(x86) unset, as on a 32-bit or ARM machine.
	}
	onPath := []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}
	for _, tc := range []struct {
		goos          string
		names, places []string
	}{
		{"linux", onPath, nil},
		{"darwin", onPath, []string{
			"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
			"/Applications/Chromium.app/Contents/MacOS/Chromium",
			"/Applications/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
			"/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
			"/Users/ada/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
			"/Users/ada/Applications/Chromium.app/Contents/MacOS/Chromium",
			"/Users/ada/Applications/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
			"/Users/ada/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
		}},
		{"windows", []string{"chrome", "chromium", "msedge"}, []string{
			`C:\Program Files\Google\Chrome\Application\chrome.exe`,
			`C:\Users\ada\AppData\Local\Google\Chrome\Application\chrome.exe`,
			`C:\Users\ada\AppData\Local\Chromium\Application\chrome.exe`,
			`C:\Program Files\Microsoft\Edge\Application\msedge.exe`,
		}},
	} {
		names, places := browserCandidates(tc.goos, func(k string) string { return env[k] })
		if diff := cmp.Diff(tc.names, names); diff != "" {
			t.Errorf("%s names (-want +got):\n%s", tc.goos, diff)
		}
		if diff := cmp.Diff(tc.places, places); diff != "" {
			t.Errorf("%s places (-want +got):\n%s", tc.goos, diff)
		}
	}
}

// A headless browser on a throwaway profile is the headless shell (make deps
// installs it); one on a profile that is kept, one headed and one the user
// named are the browser FindBrowser finds.
func TestExecutablePicksTheHeadlessShell(t *testing.T) {
	t.Parallel()
	shell, ok := FindHeadlessShell()
	if !ok {
		t.Fatal("no headless shell on this machine: install chromium-headless-shell (make deps does)")
	}
	full, err := FindBrowser("")
	if err != nil {
		t.Fatal(err)
	}
	if IsHeadlessShell(full) || !IsHeadlessShell(shell) {
		t.Fatalf("IsHeadlessShell(%s) = %v, IsHeadlessShell(%s) = %v", full, IsHeadlessShell(full), shell, IsHeadlessShell(shell))
	}
	for _, tc := range []struct {
		opts Options
		want string
	}{
		{Options{Headless: true}, shell},
		{Options{Headless: true, UserDataDir: "/profiles/anon", Disposable: true}, shell},
		{Options{Headless: true, UserDataDir: "/profiles/kept"}, full},
		{Options{Headless: true, Path: full}, full},
	} {
		got, err := executable(tc.opts)
		if err != nil || got != tc.want {
			t.Errorf("executable(%+v) = %q, %v; want %q", tc.opts, got, err, tc.want)
		}
	}
}
