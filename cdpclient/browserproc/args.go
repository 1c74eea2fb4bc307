package browserproc

import (
	"strings"
)

// Browser flags a user passes (--browser-arg) are checked the way Chromium
// reads them: a switch may start with one dash or two, its name is compared
// without regard to case, and its value follows "=". An argument that is not a
// switch at all is a URL Chromium opens at start, before cdpmcp's guards are
// in place, so it is refused as well.

// unsafeFlags weaken the browser's own protections, expose it or this machine,
// or take over what cdpmcp manages (the profile, the debugging port), by name
// without dashes.
var unsafeFlags = []string{
	// Web security and site isolation.
	"disable-web-security", "allow-running-insecure-content", "disable-site-isolation-trials",
	"disable-site-isolation-for-policy", "site-isolation-trial-opt-out", "allow-file-access-from-files",
	"allow-file-access", "unsafely-treat-insecure-origin-as-secure", "reduce-security-for-testing",
	"explicitly-allowed-ports", "disable-webrtc-encryption", "js-flags",
	// Certificates and TLS.
	"ignore-certificate-errors", "ignore-certificate-errors-spki-list", "ignore-urlfetcher-cert-requests",
	"allow-insecure-localhost", "ssl-key-log-file",
	// The sandbox and the processes Chromium starts.
	"disable-setuid-sandbox", "disable-namespace-sandbox", "disable-gpu-sandbox", "single-process",
	"browser-subprocess-path", "renderer-cmd-prefix", "gpu-launcher", "utility-cmd-prefix", "load-extension",
	"disable-extensions-except",
	// Devices and capture granted without a prompt.
	"use-fake-ui-for-media-stream", "auto-accept-camera-and-microphone-capture",
	"auto-select-desktop-capture-source", "auto-accept-this-tab-capture", "kiosk-printing",
	// What cdpmcp manages: the profile and the DevTools endpoint.
	"user-data-dir", "remote-debugging-port", "remote-debugging-pipe", "remote-debugging-io-pipes",
	"remote-debugging-address", "remote-allow-origins",
}

// networkFlags route or resolve the browser's connections. With origin rules
// cdpmcp sends every connection through its own proxy, which these would undo.
var networkFlags = []string{
	"proxy-server", "proxy-pac-url", "proxy-bypass-list", "no-proxy-server", "proxy-auto-detect",
	"host-resolver-rules", "host-rules", "force-webrtc-ip-handling-policy", "webrtc-ip-handling-policy",
}

// securityFeatures name Chromium features that are web-security checks, by a
// part of their names, so that a renamed or new one (PrivateNetworkAccess
// became LocalNetworkAccessChecks, then LocalNetworkAccessChecksWebRTC) is
// caught too: --disable-features and --disable-blink-features must not switch
// them off. Site and origin isolation, local-network access, CORS and CORB,
// cookie rules, mixed content, sandboxes, Trusted Types and CSP.
var securityFeatures = []string{"isolat", "siteperprocess", "privatenetwork", "localnetwork", "cors", "corb",
	"opaqueresponse", "samesite", "partition", "mixedcontent", "sandbox", "blockinsecure", "crossorigin",
	"trusteddomtypes", "trustedtypes", "contentsecuritypolicy", "safebrowsing", "httpsupgrade", "httpsfirst",
	"thirdpartycookie", "secure", "webrtcencryption"}

// unsafeBlinkFeatures may not be switched on: MojoJS hands pages the
// browser's internal interfaces.
var unsafeBlinkFeatures = []string{"mojojs"}

// UnsafeArgs returns the browser flags among args that disable web security
// (flags, or features that are security checks: securityFeatures), site
// isolation or the sandbox, grant devices without a prompt, hand pages the
// browser's internals (MojoJS), expose the browser or take over what this
// server manages (the profile, the debugging port), however they are spelled;
// and any argument that is not a flag (a URL the browser would open at
// start). They need an explicit opt-in.
func UnsafeArgs(args []string) []string {
	var out []string
	for _, a := range args {
		name, value, isFlag := flagName(a)
		switch {
		case !isFlag:
			out = append(out, a)
		case contains(unsafeFlags, name):
			out = append(out, a)
		case (name == "disable-features" || name == "disable-blink-features") && anyFeature(value, securityFeatures):
			out = append(out, a)
		case (name == "enable-blink-features" || name == "enable-features") && anyFeature(value, unsafeBlinkFeatures):
			out = append(out, a)
		}
	}
	return out
}

// NetworkArgs returns the flags among args that route or resolve the browser's
// connections (proxies, host rules, WebRTC policy): with origin rules they
// would open a way around cdpmcp's egress proxy.
func NetworkArgs(args []string) []string {
	var out []string
	for _, a := range args {
		if name, _, isFlag := flagName(a); isFlag && contains(networkFlags, name) {
			out = append(out, a)
		}
	}
	return out
}

// flagName reads a command-line argument as Chromium does: "-x", "--x" and
// "--X=v" are the switch x; anything else (a URL, "--" ending the switches)
// is not a switch.
func flagName(arg string) (name, value string, isFlag bool) {
	a := strings.TrimSpace(arg)
	if !strings.HasPrefix(a, "-") {
		return "", "", false
	}
	a = strings.TrimLeft(a, "-")
	if a == "" {
		return "", "", false // "--": what follows is not a switch
	}
	name, value, _ = strings.Cut(a, "=")
	if f := strings.Fields(name); len(f) > 0 {
		name = f[0]
	}
	return strings.ToLower(name), value, true
}

// anyFeature reports whether a feature list (Foo,Bar<Trial,Baz:param=1)
// names a feature containing one of parts, in any case and with or without
// dashes (site-per-process is SitePerProcess).
func anyFeature(value string, parts []string) bool {
	for _, f := range strings.Split(strings.ToLower(value), ",") {
		f = strings.TrimSpace(strings.Trim(f, `"' `))
		if i := strings.IndexAny(f, "<:"); i >= 0 { // Feature<Trial, Feature:param
			f = f[:i]
		}
		f = strings.NewReplacer("-", "", "_", "").Replace(f)
		for _, part := range parts {
			if strings.Contains(f, part) {
				return true
			}
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
