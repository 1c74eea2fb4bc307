package actions

import (
	"errors"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient/cdppolicy"
)

// The cdp tool's policy (which methods pass, how browser-level calls are kept
// to the session's own context) is cdpclient/cdppolicy's; this file only names
// the tool to use instead of a refused method.

// dedicatedTools names, by method or domain, the tool that does safely what a
// refused raw method was reaching for.
var dedicatedTools = map[string]string{
	"Runtime.evaluate":            "evaluate (side-effect-free in read-only mode)",
	"Runtime.callFunctionOn":      "evaluate with ref or selector",
	"Input":                       "click, type, fill, pressKey, hover or scroll",
	"Page.navigate":               "navigate",
	"Page.reload":                 "reload",
	"Page.navigateToHistoryEntry": "goBack or goForward",
	"Page.handleJavaScriptDialog": "handleDialog",
	"Page.printToPDF":             "screenshot",
	"Page.close":                  "closePage",
	"Target.createTarget":         "newPage",
	"Target.closeTarget":          "closePage",
	"Target.activateTarget":       "switchPage",
	"Target.attachToTarget":       "any page tool with page=pN (listPages shows them)",
	"Target.sendMessageToTarget":  "cdp with page=pN",
	"Target":                      "listPages, newPage, switchPage or closePage",
	"Fetch":                       "network (requests the page made) and --allowed-origins/--blocked-origins",
	"Network.loadNetworkResource": "navigate or getContent",
	"DOM.setFileInputFiles":       "uploadFile",
	"DOM.setOuterHTML":            "evaluate (outside read-only mode)",
	"Emulation":                   "screenshot or snapshot (they read the page as it is)",
	"Browser.setDownloadBehavior": "none: downloads go to the session's own folder",
	"Page.setDownloadBehavior":    "none: downloads go to the session's own folder",
	"Debugger":                    "evaluate or console",
	"Tracing":                     "network and console (this session's own logs)",
	"Security":                    "none: certificate checks stay on",
	"Target.getBrowserContexts":   "listPages",
}

// refusalHint says what to do about a method the policy refused.
func refusalHint(err error) string {
	var r *cdppolicy.Refusal
	if !errors.As(err, &r) {
		return ""
	}
	domain, _, _ := strings.Cut(r.Method, ".")
	tool, ok := dedicatedTools[r.Method]
	if !ok {
		tool, ok = dedicatedTools[domain]
	}
	if ok {
		return "use " + tool
	}
	if r.Why == cdppolicy.ReadOnlyRefusal {
		return "allowed in read-only mode: getters of " + readOnlyDomains + " (docs/security.md lists them)"
	}
	return "allowed: " + allowedSummary + " (docs/security.md lists them)"
}

// allowedSummary describes the allowlist in a hint's length.
const allowedSummary = "page-level methods of the page domains (DOM, CSS, Page, Runtime, Network, Emulation, Input…) " +
	"and, with page \"browser\", Target.getTargets/createTarget/closeTarget and Browser.getVersion/grantPermissions " +
	"for this session's own context"

// readOnlyDomains names the domains with read-only methods, for the tool's
// description.
var readOnlyDomains = domainsOf(cdppolicy.ReadOnlyMethods())

func domainsOf(methods []string) string {
	seen := map[string]bool{}
	var out []string
	for _, m := range methods {
		d, _, _ := strings.Cut(m, ".")
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return strings.Join(out, ", ")
}
