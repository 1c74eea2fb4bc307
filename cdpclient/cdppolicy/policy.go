// Package cdppolicy decides which raw DevTools protocol methods the `cdp`
// passthrough may send, in every mode: an allowlist (anything not named here
// is refused), a shorter one of reading methods for read-only mode, and for
// the methods that can reach beyond the caller's own browser context or the
// origin rules, what the passthrough (cdpclient/passthrough) must check or
// rewrite before sending them.
// It is pure: no browser, no tool names.
package cdppolicy

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Level is where a call goes: a page's session or the browser itself.
type Level uint8

const (
	// Page is a tab's own session.
	Page Level = iota
	// Browser is the browser target, which sees every context.
	Browser
)

// Scope says what the caller must do with a method the policy lets through.
type Scope uint8

const (
	// Free methods act only on the page's own session.
	Free Scope = iota
	// OwnContext methods take a browserContextId: set it to the caller's own.
	OwnContext
	// OwnTarget methods take a targetId: it must be in the caller's context.
	OwnTarget
	// FilterTargets methods return targetInfos: keep the caller's only.
	FilterTargets
	// FilterContexts methods return browserContextIds: keep the caller's only.
	FilterContexts
	// CheckURL methods load their "url" parameter: it must pass the origin rules.
	CheckURL
	// NewTarget opens a tab: the caller's context, and a URL the rules allow.
	NewTarget
)

// Refusal is a method the policy does not let through, and why.
type Refusal struct {
	Method string
	Why    string
}

func (r *Refusal) Error() string { return r.Method + " is refused: " + r.Why }

// ReadOnlyRefusal is why read-only mode refuses an allowed method.
const ReadOnlyRefusal = "read-only mode allows only methods that read"

// rule is one method's entry.
type rule struct {
	scope   Scope
	read    bool // allowed in read-only mode
	browser bool // allowed at browser level
}

// Check returns how to send method at level, or a *Refusal. params are the
// call's parameters, for the methods whose arguments matter to the verdict.
func Check(method string, level Level, readOnly bool, params json.RawMessage) (Scope, error) {
	r, ok := rules[method]
	if !ok {
		return Free, &Refusal{Method: method, Why: whyRefused(method)}
	}
	if level == Browser && !r.browser {
		return Free, &Refusal{Method: method, Why: "it is not allowed at browser level (send it to a page, or leave page out)"}
	}
	if readOnly && !r.read {
		return Free, &Refusal{Method: method, Why: ReadOnlyRefusal}
	}
	if readOnly && method == "Page.captureScreenshot" && paramTrue(params, "captureBeyondViewport") {
		return Free, &Refusal{Method: method, Why: "captureBeyondViewport resizes the page, which read-only mode does not allow"}
	}
	if why := permissionRefusal(method, params); why != "" {
		return Free, &Refusal{Method: method, Why: why}
	}
	return r.scope, nil
}

// ownerOnlyPermissions are the permissions a call may not grant: capture of
// the user (camera, microphone, screen) is the server owner's to grant
// (--grant-permissions), and reaching the local network and this machine is
// never granted. By the protocol's types (grantPermissions) and the
// Permissions API's names (setPermission), in lower case.
var ownerOnlyPermissions = []string{"audiocapture", "videocapture", "displaycapture", "camerapantiltzoom", "capturedsurfacecontrol",
	"camera", "microphone", "display-capture", "camera-pan-tilt-zoom", "captured-surface-control",
	"localnetwork", "localnetworkaccess", "loopbacknetwork", "local-network", "local-network-access", "loopback-network"}

// permissionRefusal says why a permission call may not pass, "" when it may.
func permissionRefusal(method string, params json.RawMessage) string {
	var p struct {
		Permissions []string `json:"permissions"`
		Permission  struct {
			Name string `json:"name"`
		} `json:"permission"`
	}
	switch method {
	case "Browser.grantPermissions", "Browser.setPermission":
	default:
		return ""
	}
	_ = json.Unmarshal(params, &p)
	for _, name := range append(p.Permissions, p.Permission.Name) {
		if slices.Contains(ownerOnlyPermissions, strings.ToLower(name)) {
			return fmt.Sprintf("%s is granted by the server's owner only (--grant-permissions), and the local-network permissions never", name)
		}
	}
	return ""
}

// ReadOnlyMethods lists the methods read-only mode allows, sorted.
func ReadOnlyMethods() []string {
	var out []string
	for m, r := range rules {
		if r.read {
			out = append(out, m)
		}
	}
	sort.Strings(out)
	return out
}

// Methods lists every method the passthrough allows in normal mode, sorted.
func Methods() []string {
	out := make([]string, 0, len(rules))
	for m := range rules {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

func paramTrue(params json.RawMessage, key string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(params, &m) != nil {
		return false
	}
	return strings.TrimSpace(string(m[key])) == "true"
}

// whyRefused explains a method that is not on the allowlist.
func whyRefused(method string) string {
	domain, _, _ := strings.Cut(method, ".")
	if why, ok := refusedMethods[method]; ok {
		return why
	}
	if why, ok := refusedDomains[domain]; ok {
		return why
	}
	if _, known := pageDomains[domain]; known {
		return "it is not on the passthrough's allowlist"
	}
	return fmt.Sprintf("%s is not a domain the passthrough allows", domain)
}
