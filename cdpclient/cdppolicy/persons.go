package cdppolicy

// In a browser cdpmcp attached to (--cdp-endpoint, --auto-connect), the
// default context is the person's own: their sign-ins, storage, history and
// tabs. The passthrough lets a session act on pages there, but not wipe or
// break what the person has beyond the session's own work: these methods
// are refused in it (a context cdpmcp made, in any browser, takes them).
var personsRefused = map[string]string{
	"Network.clearBrowserCookies":    "it deletes every cookie of the person's browser, signing them out everywhere",
	"Network.clearBrowserCache":      "it empties the person's browser cache",
	"Network.deleteCookies":          "it deletes the person's cookies (their sign-ins)",
	"Page.deleteCookie":              "it deletes the person's cookies (their sign-ins)",
	"Storage.clearCookies":           "it deletes every cookie of the person's browser, signing them out everywhere",
	"Storage.clearDataForOrigin":     "it deletes a site's data in the person's browser",
	"Storage.clearDataForStorageKey": "it deletes a site's data in the person's browser",
	"DOMStorage.clear":               "it deletes a site's storage in the person's browser",
	"IndexedDB.deleteDatabase":       "it deletes a site's database in the person's browser",
	"IndexedDB.clearObjectStore":     "it deletes a site's data in the person's browser",
	"CacheStorage.deleteCache":       "it deletes a site's cache in the person's browser",
	"ServiceWorker.unregister":       "it removes a site's service worker from the person's browser",
	"Page.crash":                     "it crashes the person's tab",
	"Page.setWebLifecycleState":      "it freezes the person's tab, which stays frozen after cdpmcp leaves",
	"Page.resetNavigationHistory":    "it erases the person's history in the tab",
}

// CheckPersons refuses, in the default context of a browser cdpmcp attached
// to, a method that would wipe or break what the person has there.
func CheckPersons(method string) error {
	if why, ok := personsRefused[method]; ok {
		return &Refusal{Method: method, Why: "in the browser cdpmcp attached to, " + why}
	}
	return nil
}
