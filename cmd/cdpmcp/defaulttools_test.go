package main

import (
	"strings"
	"testing"
)

// The raw cdp passthrough is a default tool, without --caps, and still under
// its allowlist: a reading method answers, a method that would take the
// browser away is refused with PERMISSION and a hint naming the list.
func TestCdpIsADefaultTool(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	r := runCLI(t, tmp, "call", "--headless", "--browser-arg="+newMarker("cdp"), "cdp", `{"domain":"Browser","method":"getVersion","page":"browser"}`)
	if r.code != 0 || !strings.Contains(r.stdout, `"product":`) {
		t.Errorf("cdp Browser.getVersion: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, tmp, "call", "--headless", "--browser-arg="+newMarker("cdp"), "cdp", `{"domain":"Browser","method":"close","page":"browser"}`)
	if r.code == 0 || !strings.Contains(r.stdout, `"code":8`) || !strings.Contains(r.stdout, "Browser.close is refused") ||
		!strings.Contains(r.stdout, "docs/security.md lists them") {
		t.Errorf("cdp Browser.close: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
}
