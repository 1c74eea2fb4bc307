package browserproc

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// An unsafe flag is refused however it is spelled: one dash or two, any case,
// with a value or without; and an argument that is not a flag is a URL the
// browser would open before the guards.
func TestUnsafeArgsSpellings(t *testing.T) {
	unsafe := []string{
		"--disable-web-security", "-disable-web-security", "--DISABLE-WEB-SECURITY", "---disable-web-security",
		" --disable-web-security ", "--disable-web-security=1", "-Disable-Web-Security=true",
		"--user-data-dir=/tmp/x", "-user-data-dir", "--remote-debugging-port=9222", "--remote-debugging-address=0.0.0.0",
		"--disable-features=IsolateOrigins", "--disable-features=Foo,site-per-process,SitePerProcess",
		"-disable-features=foo,isolateorigins", "--disable-features=\"IsolateOrigins\"", "--disable-features=IsolateOrigins<Trial",
		"--ignore-certificate-errors", "--load-extension=/tmp/ext", "--js-flags=--allow-natives-syntax",
		"--disable-setuid-sandbox", "--use-fake-ui-for-media-stream", "--browser-subprocess-path=/bin/sh",
		"--user-data-dir /tmp/x", "http://evil.example/", "evil.example", "--", "-",
		"--disable-features=LocalNetworkAccessChecks", "--disable-features=Translate,LocalNetworkAccessChecksWebRTC",
		"--disable-features=PrivateNetworkAccessSendPreflights", "--disable-features=BlockInsecurePrivateNetworkRequests",
		"--disable-features=OpaqueResponseBlocking", "--disable-features=IsolateSandboxedIframes",
		"--disable-features=ThirdPartyStoragePartitioning", "--disable-features=SameSiteByDefaultCookies",
		"--disable-features=CookiesWithoutSameSiteMustBeSecure", "--disable-blink-features=TrustedDOMTypes",
		"--enable-blink-features=MojoJS", "--enable-blink-features=Foo,MojoJSTest", "--disable-features=AutoupgradeMixedContent",
	}
	if got := UnsafeArgs(unsafe); !cmp.Equal(got, unsafe) {
		t.Errorf("passed as safe: %v", missing(unsafe, got))
	}
	safe := []string{"--no-sandbox", "--disable-gpu", "--headless", "--window-size=800,600", "--lang=de",
		"--disable-features=Translate,MediaRouter", "--enable-features=NetworkService", "--cdpmcp-test=x",
		"--disable-features=OptimizationHints,AutofillServerCommunication", "--enable-blink-features=CSSAnchorPositioning",
		"--proxy-server=http://corp:3128", "--mute-audio", "--force-device-scale-factor=2"}
	if got := UnsafeArgs(safe); len(got) != 0 {
		t.Errorf("refused as unsafe: %v", got)
	}
	network := []string{"--proxy-server=http://x", "-no-proxy-server", "--PROXY-PAC-URL=file:///p", "--proxy-bypass-list=*",
		"--host-resolver-rules=MAP * 1.2.3.4", "--webrtc-ip-handling-policy=default", "--force-webrtc-ip-handling-policy"}
	if got := NetworkArgs(append(network, safe[:3]...)); !cmp.Equal(got, network) {
		t.Errorf("NetworkArgs = %v, want %v", got, network)
	}
}

func missing(want, got []string) []string {
	seen := map[string]bool{}
	for _, g := range got {
		seen[g] = true
	}
	var out []string
	for _, w := range want {
		if !seen[w] {
			out = append(out, w)
		}
	}
	return out
}

// docs/security.md lists every flag the check refuses.
func TestSecurityDocListsUnsafeFlags(t *testing.T) {
	b, err := os.ReadFile("../../docs/security.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range append(append([]string{}, unsafeFlags...), networkFlags...) {
		if !strings.Contains(string(b), "`--"+f) {
			t.Errorf("docs/security.md does not list --%s", f)
		}
	}
}
