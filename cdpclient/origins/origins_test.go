package origins

import (
	"net"
	"net/url"
	"testing"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		pattern string
		url     string
		want    bool
	}{
		{"https://example.com", "https://example.com/a?b", true},
		{"https://example.com", "https://example.com:443/", true},
		{"https://example.com", "http://example.com/", false},
		{"https://example.com", "https://example.com:8443/", false},
		{"https://example.com", "https://www.example.com/", false},
		{"https://*.example.com", "https://www.example.com/", true},
		{"https://*.example.com", "https://a.b.example.com/", true},
		{"https://*.example.com", "https://example.com/", false},
		{"https://*.example.com", "https://evilexample.com/", false},
		{"https://*.example.com", "https://example.com.evil.net/", false},
		{"http://127.0.0.1:*", "http://127.0.0.1:8080/x", true},
		{"http://127.0.0.1:*", "http://127.0.0.1/x", true},
		{"http://127.0.0.1:*", "http://localhost:8080/x", false},
		{"*://example.com", "http://example.com/", true},
		{"*://example.com", "https://example.com/", true},
		{"*://example.com", "https://example.com:444/", false},
		{"https://example.com", "wss://example.com/socket", true},
		{"http://[::1]:*", "http://[::1]:3000/", true},
		{"https://*", "https://anything.test/", true},
		{"https://EXAMPLE.com", "https://example.COM/", true},
		{"https://example.com", "ftp://example.com/", false},
	}
	for _, tc := range tests {
		p, err := Parse(tc.pattern)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.pattern, err)
		}
		u, _ := url.Parse(tc.url)
		if got := p.Match(u); got != tc.want {
			t.Errorf("%q matches %q = %v, want %v", tc.pattern, tc.url, got, tc.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, s := range []string{"", "example.com", "ftp://x", "https://", "https://a/b", "https://a:b", "https://a*.com", "https://*.", "https://*.*.com", "https://a:", "https://[::1", "https://u@a", "https://a:123456"} {
		if _, err := Parse(s); err == nil {
			t.Errorf("Parse(%q) accepted", s)
		}
	}
}

func TestListCheck(t *testing.T) {
	l, err := NewList([]string{"http://127.0.0.1:*", "https://*.example.com"}, []string{"https://ads.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	for u, ok := range map[string]bool{
		"http://127.0.0.1:4000/":            true,
		"https://www.example.com/":          true,
		"https://ads.example.com/x.js":      false,
		"http://localhost:4000/":            false,
		"about:blank":                       true,
		"data:text/html,hi":                 true,
		"file:///etc/passwd":                false,
		"chrome://settings":                 false,
		"blob:http://127.0.0.1:4000/abc-12": true,
	} {
		if err := l.Check(u); (err == nil) != ok {
			t.Errorf("Check(%q) = %v, want allowed=%v", u, err, ok)
		}
	}
	if (&List{}).Check("https://x/") != nil || (&List{AllowFile: true}).Check("file:///x") != nil {
		t.Error("an empty list refuses an origin")
	}
	for _, u := range []string{"file:///etc/passwd", "chrome://settings", "view-source:http://x/", "about:config", "devtools://devtools/x"} {
		if (&List{}).Check(u) == nil || (*List)(nil).Check(u) == nil {
			t.Errorf("%s is not refused by default", u)
		}
	}
	if (&List{AllowBrowser: true}).Check("chrome://version") != nil || (&List{}).Check("about:blank") != nil {
		t.Error("allowed schemes refused")
	}
}

// FuzzParse checks that any pattern either parses into one that matches its own
// origin consistently, or is refused with an error; never a panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"https://example.com", "https://*.example.com", "http://127.0.0.1:*", "*://a", "http://[::1]:80", "https://a:99999", "", "://", "https://*.", "http://a:b"} {
		f.Add(s, "https://www.example.com:443/path")
	}
	f.Fuzz(func(t *testing.T, pattern, raw string) {
		p, err := Parse(pattern)
		if err != nil {
			return
		}
		if u, err := url.Parse(raw); err == nil {
			_ = p.Match(u)
		}
		l := &List{Allowed: []Pattern{p}}
		_ = l.Check(raw)
	})
}

// A host spelled another way than the browser sends it is still the same host:
// a blocked origin cannot be reached by a trailing dot or a numeric IPv4 form,
// and an allowed one is not refused for it.
func TestHostSpellings(t *testing.T) {
	l, err := NewList(nil, []string{"http://127.0.0.2:*", "https://evil.example"})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"http://127.0.0.2:80/", "http://2130706434/", "http://0x7f000002:8080/", "http://127.2:1/",
		"http://0177.0.0.2/", "https://evil.example./", "https://EVIL.example/", "ws://127.0.0.2:9/"} {
		if l.Check(u) == nil {
			t.Errorf("Check(%q) allowed a blocked host", u)
		}
	}
	for _, u := range []string{"http://127.0.0.3/", "http://1.2.3.4.5/", "https://evil.example.com/", "http://0x/"} {
		if err := l.Check(u); err != nil {
			t.Errorf("Check(%q) = %v, want allowed", u, err)
		}
	}
	if _, err := Parse("https://bücher.de"); err == nil {
		t.Error("a non-ASCII pattern was accepted; browsers send punycode")
	}
	if p, err := Parse("http://example.com.:*"); err != nil || !p.Match(mustURL(t, "http://example.com:81/")) {
		t.Errorf("pattern with a trailing dot: %v", err)
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// A blocked address is refused by IP whatever name led to it, and an IPv4
// address written as IPv6 is the IPv4 address.
func TestCheckBlockedAddr(t *testing.T) {
	l, err := NewList(nil, []string{"http://169.254.169.254", "*://127.0.0.2:*"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		ip, port string
		blocked  bool
	}{
		{"169.254.169.254", "80", true}, {"169.254.169.254", "8080", false}, {"127.0.0.2", "9", true},
		{"::ffff:127.0.0.2", "9", true}, {"127.0.0.1", "9", false}, {"::1", "9", false},
	} {
		if err := l.CheckBlockedAddr(net.ParseIP(tc.ip), tc.port); (err != nil) != tc.blocked {
			t.Errorf("CheckBlockedAddr(%s, %s) = %v, want blocked %v", tc.ip, tc.port, err, tc.blocked)
		}
	}
	if l.Check("http://[::ffff:7f00:2]:9/") == nil {
		t.Error("an IPv4-mapped IPv6 URL reached a blocked IPv4 address")
	}
}
