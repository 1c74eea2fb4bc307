package permissions

import (
	"slices"
	"sort"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
)

// webNames maps the Permissions API's names (navigator.permissions.query)
// to the protocol's permission types.
var webNames = map[string]string{
	"geolocation":                "geolocation",
	"notifications":              "notifications",
	"push":                       "notifications",
	"camera":                     "videoCapture",
	"microphone":                 "audioCapture",
	"display-capture":            "displayCapture",
	"camera-pan-tilt-zoom":       "cameraPanTiltZoom",
	"captured-surface-control":   "capturedSurfaceControl",
	"clipboard-read":             "clipboardReadWrite",
	"clipboard-write":            "clipboardSanitizedWrite",
	"midi":                       "midi",
	"midi-sysex":                 "midiSysex",
	"background-sync":            "backgroundSync",
	"background-fetch":           "backgroundFetch",
	"periodic-background-sync":   "periodicBackgroundSync",
	"accelerometer":              "sensors",
	"gyroscope":                  "sensors",
	"magnetometer":               "sensors",
	"ambient-light-sensor":       "sensors",
	"idle-detection":             "idleDetection",
	"local-fonts":                "localFonts",
	"payment-handler":            "paymentHandler",
	"persistent-storage":         "durableStorage",
	"storage-access":             "storageAccess",
	"top-level-storage-access":   "topLevelStorageAccess",
	"screen-wake-lock":           "wakeLockScreen",
	"system-wake-lock":           "wakeLockSystem",
	"window-management":          "windowManagement",
	"keyboard-lock":              "keyboardLock",
	"pointer-lock":               "pointerLock",
	"nfc":                        "nfc",
	"speaker-selection":          "speakerSelection",
	"fullscreen":                 "automaticFullscreen",
	"web-printing":               "webPrinting",
	"smart-card":                 "smartCard",
	"protected-media-identifier": "protectedMediaIdentifier",
}

// protocolTypes are the protocol's permission types Chromium 156 knows.
var protocolTypes = []string{"ar", "audioCapture", "automaticFullscreen", "backgroundFetch", "backgroundSync",
	"cameraPanTiltZoom", "capturedSurfaceControl", "clipboardReadWrite", "clipboardSanitizedWrite", "displayCapture",
	"durableStorage", "geolocation", "handTracking", "idleDetection", "keyboardLock", "localFonts", "midi", "midiSysex",
	"nfc", "notifications", "paymentHandler", "periodicBackgroundSync", "pointerLock", "protectedMediaIdentifier",
	"sensors", "smartCard", "speakerSelection", "storageAccess", "topLevelStorageAccess", "videoCapture", "vr",
	"wakeLockScreen", "wakeLockSystem", "webAppInstallation", "webPrinting", "windowManagement"}

// networkTypes let a page reach this machine's and the local network's
// services, which cdpmcp keeps from pages: never granted.
var networkTypes = []string{"localNetwork", "localNetworkAccess", "loopbackNetwork", "local-network", "local-network-access", "loopback-network"}

// captureTypes record the user (camera, microphone, screen): granted only
// by the server's owner (--grant-permissions), never by a tool call.
var captureTypes = []string{"audioCapture", "videoCapture", "displayCapture", "cameraPanTiltZoom", "capturedSurfaceControl"}

// Parse turns permission names (the Permissions API's, e.g. geolocation,
// clipboard-read, camera; or the protocol's, e.g. clipboardReadWrite) into
// the protocol's types, each once, in order. byTool refuses what only the
// server's owner may grant (capture of camera, microphone and screen).
// Errors are *cdpclient.ArgError naming the known names.
func Parse(names []string, byTool bool) ([]string, error) {
	var out []string
	for _, raw := range names {
		name := strings.TrimSpace(raw)
		if name == "" {
			continue
		}
		if slices.ContainsFunc(networkTypes, func(n string) bool { return strings.EqualFold(n, name) }) {
			return nil, cdpclient.ArgErrorf("pages never get to reach this machine's or the local network's services through cdpmcp",
				"permission %q is not granted", name)
		}
		t, ok := webNames[strings.ToLower(name)]
		if !ok {
			i := slices.IndexFunc(protocolTypes, func(p string) bool { return strings.EqualFold(p, name) })
			if i < 0 {
				return nil, cdpclient.ArgErrorf("permissions: "+strings.Join(Names(), ", "), "%q is not a permission", name)
			}
			t = protocolTypes[i]
		}
		if byTool && slices.Contains(captureTypes, t) {
			return nil, cdpclient.ArgErrorf("capture of the camera, microphone or screen is granted by the server's owner only, with --grant-permissions",
				"permission %q records the user", name)
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil, cdpclient.ArgErrorf(`for example ["geolocation","notifications"]`, "name at least one permission")
	}
	return out, nil
}

// Names are the permission names Parse takes, as the web spells them.
func Names() []string {
	out := make([]string, 0, len(webNames))
	for n := range webNames {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
