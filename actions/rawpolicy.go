package actions

import (
	"slices"
	"sort"
	"strings"
)

// readOnlyCDP lists the CDP methods the cdp tool passes in --read-only mode:
// ones that read the page or the browser and change nothing. Anything else is
// refused with PERMISSION.
var readOnlyCDP = []string{
	"Accessibility.getFullAXTree", "Accessibility.getPartialAXTree", "Accessibility.queryAXTree",
	"Browser.getVersion", "Browser.getWindowForTarget",
	"CSS.getComputedStyleForNode", "CSS.getMatchedStylesForNode", "CSS.getInlineStylesForNode",
	"DOM.describeNode", "DOM.getAttributes", "DOM.getBoxModel", "DOM.getContentQuads", "DOM.getDocument",
	"DOM.getFlattenedDocument", "DOM.getNodeForLocation", "DOM.getOuterHTML", "DOM.querySelector",
	"DOM.querySelectorAll", "DOM.resolveNode",
	"DOMSnapshot.captureSnapshot",
	"Page.captureScreenshot", "Page.getAppManifest", "Page.getFrameTree", "Page.getLayoutMetrics",
	"Page.getNavigationHistory", "Page.getResourceContent", "Page.getResourceTree",
	"Performance.getMetrics",
	"Runtime.getProperties",
	"Security.getSecurityState",
	"Target.getTargetInfo", "Target.getTargets",
}

// cdpAllowed says whether the cdp tool may send method under the configuration.
func cdpAllowed(readOnly bool, method string) bool {
	return !readOnly || slices.Contains(readOnlyCDP, method)
}

// readOnlyDomains names the domains with read-only methods, for hints.
var readOnlyDomains = domainsOf(readOnlyCDP)

func domainsOf(methods []string) string {
	seen := map[string]bool{}
	for _, m := range methods {
		d, _, _ := strings.Cut(m, ".")
		seen[d] = true
	}
	var out []string
	for d := range seen {
		out = append(out, d)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}
