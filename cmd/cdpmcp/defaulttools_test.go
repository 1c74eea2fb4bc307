package main

import (
	"strings"
	"testing"
)

// The raw cdp passthrough is a default tool, without --caps, and still under
// its allowlist: a reading method answers (named whole, or as domain and
// method), a method that would take the browser away is refused with
// PERMISSION and a hint naming the list.
func TestCdpIsADefaultTool(t *testing.T) {
	t.Parallel()
	tmp := shortTemp(t)
	r := runCLI(t, tmp, "call", "--headless", "--browser-arg="+newMarker("cdp"), "cdp", `{"method":"Browser.getVersion"}`)
	if r.code != 0 || !strings.Contains(r.stdout, `"product":`) {
		t.Errorf("cdp {method: Browser.getVersion}: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, tmp, "call", "--headless", "--browser-arg="+newMarker("cdp"), "cdp", `{"domain":"Browser","method":"getVersion","page":"browser"}`)
	if r.code != 0 || !strings.Contains(r.stdout, `"product":`) {
		t.Errorf("cdp Browser.getVersion on the browser: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, tmp, "call", "--headless", "--browser-arg="+newMarker("cdp"), "cdp", `{"domain":"Browser","method":"close","page":"browser"}`)
	if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, `"code":8`) || !strings.Contains(r.stderr, "Browser.close is refused") ||
		!strings.Contains(r.stderr, "docs/security.md lists them") {
		t.Errorf("cdp Browser.close: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, tmp, "call", "cdp", `{"domain":"DOM","method":"Browser.getVersion"}`)
	if want := `cdpmcp: cdp failed: method "Browser.getVersion" is not in domain "DOM"`; r.code != 1 || !strings.HasPrefix(r.stderr, want) {
		t.Errorf("cdp with two domains: exit %d\nstderr %q\nwant %q…", r.code, r.stderr, want)
	}
}
