package jobs

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/url"
	"slices"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
)

// A tab a job without a profile used serves the next such job once everything
// it stored is gone.

// frameOrigins are the origins the tab's frames requested, out-of-process ones
// included (the HAR records the tab's own session only).
func frameOrigins(p *cdpclient.Page) []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range p.NetworkEntries() {
		if u, err := url.Parse(e.URL); err == nil && (u.Scheme == "http" || u.Scheme == "https") && !seen[u.Host] {
			seen[u.Host] = true
			out = append(out, u.Scheme+"://"+u.Host)
		}
	}
	return out
}

// scrubTab clears everything the tab's origins stored (cookies, local and
// session storage, IndexedDB, caches, service workers), leaves it on
// about:blank with no history, and reports whether all of that went.
//
// The page's scripts are stopped first, so that nothing it runs (a timer, a
// pagehide handler as it is left) stores again what was cleared; it is
// cleared while it is still open, since the browser clears a tab's session
// storage for an origin only through a frame of that origin; then the tab
// leaves it and runs scripts again.
func scrubTab(p *cdpclient.Page, origins []string) bool {
	if p.Usable() != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	call := func(method string, params any) bool {
		args, _ := json.Marshal(params)
		if _, err := p.Raw(ctx, method, args); err != nil {
			slog.Debug("scrub a job's tab", "method", method, "err", err)
			return false
		}
		return true
	}
	if !call("Emulation.setScriptExecutionDisabled", map[string]bool{"value": true}) || !call("DOMStorage.enable", nil) {
		return false
	}
	for _, o := range slices.Compact(slices.Sorted(slices.Values(origins))) {
		if !call("Storage.clearDataForOrigin", map[string]string{"origin": o, "storageTypes": "all"}) ||
			!call("DOMStorage.clear", map[string]any{"storageId": map[string]any{"securityOrigin": o, "isLocalStorage": false}}) {
			return false
		}
	}
	if err := cdpclient.Outcome(p.Navigate(ctx, "about:blank", cdpclient.WaitLoad)); err != nil {
		return false
	}
	return call("Emulation.setScriptExecutionDisabled", map[string]bool{"value": false}) &&
		call("Page.resetNavigationHistory", nil) && call("DOMStorage.disable", nil)
}
