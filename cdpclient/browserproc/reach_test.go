package browserproc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/google/go-cmp/cmp"
)

// --proxy-server takes an address with or without scheme, credentials in it
// or apart (never both), and a bypass list with commas or semicolons;
// messages never show the password.
func TestParseProxy(t *testing.T) {
	for _, tc := range []struct {
		server, bypass, user, pass string
		want                       *Proxy
	}{
		{"", "", "", "", nil},
		{"proxy.internal:3128", "", "", "", &Proxy{Server: "http://proxy.internal:3128"}},
		{"http://u:p%40ss@127.0.0.1:8080", "a.test, *.b.test;<local>", "", "", &Proxy{Server: "http://127.0.0.1:8080", Bypass: "a.test;*.b.test;<local>", User: "u", Password: "p@ss"}},
		{"https://proxy:443", "", "me", "secret", &Proxy{Server: "https://proxy:443", User: "me", Password: "secret"}},
		{"socks5://127.0.0.1:1080", "", "", "", &Proxy{Server: "socks5://127.0.0.1:1080"}},
	} {
		got, err := ParseProxy(tc.server, tc.bypass, tc.user, tc.pass)
		if err != nil || !cmp.Equal(got, tc.want) {
			t.Errorf("ParseProxy(%q, %q): %+v, %v; want %+v", tc.server, tc.bypass, got, err, tc.want)
		}
	}
	for _, bad := range [][4]string{
		{"ftp://proxy:21", "", "", ""}, {"http://proxy:3128/path", "", "", ""}, {"http://", "", "", ""},
		{"http://u:hunter22@proxy:1", "", "u", ""}, {"socks5://u:hunter22@proxy:1080", "", "", ""},
		{"proxy:1", "", "", "hunter22"}, {"", "x.test", "", ""}, {"proxy:notaport", "", "", ""},
	} {
		_, err := ParseProxy(bad[0], bad[1], bad[2], bad[3])
		if err == nil || strings.Contains(err.Error(), "hunter22") || !strings.Contains(err.Error(), "--proxy") {
			t.Errorf("ParseProxy(%q): %v", bad, err)
		}
	}
	p := &Proxy{Server: "http://proxy:1", Bypass: "a.test", User: "u", Password: "pw"}
	if got := p.flags(); !cmp.Equal(got, []string{"--proxy-server=http://proxy:1", "--proxy-bypass-list=a.test"}) || strings.Contains(p.String(), "pw") {
		t.Errorf("flags %v, String %q", got, p.String())
	}
}

// WebMCP's feature joins the user's own --enable-features (Chromium reads
// only the last), once.
func TestWithFeature(t *testing.T) {
	for _, tc := range []struct{ in, want []string }{
		{nil, []string{"--enable-features=WebMCPTesting"}},
		{[]string{"--lang=de"}, []string{"--enable-features=WebMCPTesting", "--lang=de"}},
		{[]string{"--enable-features=Foo,Bar"}, []string{"--enable-features=Foo,Bar,WebMCPTesting"}},
		{[]string{"--enable-features=Foo", "-enable-features=webmcptesting"}, []string{"--enable-features=Foo", "-enable-features=webmcptesting"}},
		{[]string{"--enable-features="}, []string{"--enable-features=WebMCPTesting"}},
	} {
		if got := withFeature(tc.in, WebMCPFeature); !cmp.Equal(got, tc.want) {
			t.Errorf("withFeature(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	args := launchArgs(Options{DisableWebMCP: true, Args: []string{"--enable-features=Foo"}}, "/p", nil)
	if strings.Contains(strings.Join(args, " "), WebMCPFeature) {
		t.Errorf("DisableWebMCP: %q", args)
	}
}

// Endpoints show without the values of their query or a password.
func TestDisplayEndpoint(t *testing.T) {
	for in, want := range map[string]string{
		"wss://chrome.browserless.io?token=abc123": "wss://chrome.browserless.io?token=***",
		"wss://u:pw@pool.example/x?a=1&b=2":        "wss://u:***@pool.example/x?a=***&b=***",
		"http://127.0.0.1:9222":                    "http://127.0.0.1:9222",
		"ws://127.0.0.1:9/devtools/browser/abc":    "ws://127.0.0.1:9/devtools/browser/abc",
		"not a url at all":                         "not a url at all",
	} {
		if got := DisplayEndpoint(in); got != want {
			t.Errorf("DisplayEndpoint(%q) = %q, want %q", in, got, want)
		}
	}
}

// The profile folders --auto-connect looks in, per system, and a
// DevToolsActivePort read from one of them; a stale one (nothing answers on
// its port) is said as such.
func TestAutoConnectFolders(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	linux := ProfileDirs("linux", env(map[string]string{"HOME": "/home/ada"}))
	if linux[0] != "/home/ada/.config/google-chrome" || !contains(linux, "/home/ada/.config/chromium") || !contains(linux, "/home/ada/snap/chromium/common/chromium") {
		t.Errorf("linux: %q", linux)
	}
	if xdg := ProfileDirs("linux", env(map[string]string{"HOME": "/home/ada", "XDG_CONFIG_HOME": "/cfg"})); xdg[0] != "/cfg/google-chrome" {
		t.Errorf("XDG_CONFIG_HOME: %q", xdg)
	}
	if mac := ProfileDirs("darwin", env(map[string]string{"HOME": "/Users/ada"})); mac[0] != "/Users/ada/Library/Application Support/Google/Chrome" ||
		!contains(mac, "/Users/ada/Library/Application Support/Google/Chrome Canary") {
		t.Errorf("darwin: %q", mac)
	}
	if win := ProfileDirs("windows", env(map[string]string{"LOCALAPPDATA": `C:\Users\ada\AppData\Local`})); win[0] != `C:\Users\ada\AppData\Local\Google\Chrome\User Data` ||
		!contains(win, `C:\Users\ada\AppData\Local\Google\Chrome SxS\User Data`) {
		t.Errorf("windows: %q", win)
	}

	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "DevToolsActivePort"), []byte("9\n/devtools/browser/abc\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if port, path, ok := readActivePort(filepath.Join(dir, "DevToolsActivePort")); !ok || port != 9 || path != "/devtools/browser/abc" {
		t.Errorf("readActivePort = %d %q %v", port, path, ok)
	}
	_, _, err := AutoConnect(testbound.Context(t), dir)
	var se *SetupError
	if !asSetup(err, &se) || !strings.Contains(se.Msg, "nothing answers") || !strings.Contains(se.Hint, "chrome://inspect/#remote-debugging") {
		t.Errorf("a stale DevToolsActivePort: %v", err)
	}
}

func asSetup(err error, se **SetupError) bool {
	e, ok := err.(*SetupError)
	*se = e
	return ok
}
