package jobs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// A named profile keeps what later jobs need to stay signed in, and nothing
// else: the state sites keep for themselves (cookies, localStorage,
// IndexedDB and the storage buckets that hold it now, the origin-private
// file system, Web SQL). Everything else a Chromium profile holds records
// where the browser went or what was typed into it — History, Visited
// Links, Top Sites, Favicons, Shortcuts, the predictor's and the omnibox's
// databases, Sessions and Sessions_Encrypted (every tab's URLs and form
// state), Session Storage, Login Data and Web Data (saved passwords,
// autofill, what forms were sent), Network Persistent State, TransportSecurity
// and Reporting and NEL (the hosts visited), DIPS and site engagement (in
// Preferences), Local State's profile data — or is the browser's own
// (caches, components, crash reports, locks), so it is left out of the
// archive a shared store keeps (tarDir) and removed from the folder before
// the profile's browser starts and once it has shut down (pruneProfile): a
// sign-in form sent by GET puts the password in a URL, and a file that kept
// it would let anyone with the folder or a backup check a guess of it. While
// the browser runs, it saves no history (history.saving_disabled), keeps no
// disk cache (profileArgs), offers to save no password or form entry, and
// cannot write its session (a file stands where each session folder would
// be).

// profileKeeps are the paths, under a profile's folder, that hold what
// sites stored for themselves: all that a named profile keeps.
var profileKeeps = []string{
	"Default/Network/Cookies", "Default/Network/Cookies-journal",
	"Default/Cookies", "Default/Cookies-journal", // where older Chromium kept them
	"Default/Local Storage", "Default/IndexedDB", "Default/WebStorage", "Default/File System", "Default/databases",
	cookieFile, // the cookies at the last job's end (profilecookies.go)
}

// kept says whether rel (slash-separated, under a profile's folder) is kept:
// all of it (it is or is inside a kept path), or in part (a folder on the
// way to one).
func kept(rel string) (all, part bool) {
	for _, k := range profileKeeps {
		if rel == k || strings.HasPrefix(rel, k+"/") {
			return !skipped[filepath.Base(rel)], false
		}
		if strings.HasPrefix(k, rel+"/") {
			part = true
		}
	}
	return false, part
}

// profileArgs are the launch flags of a named profile's browser.
func profileArgs() []string { return []string{"--disk-cache-dir=" + os.DevNull} }

// blocked are the folders a profile's browser would write its sessions in:
// a file stands in each one's place, so it cannot.
var blocked = []string{"Sessions", "Sessions_Encrypted"}

// prepareProfile readies a named profile's folder before its browser starts.
func prepareProfile(dir string) error {
	if err := pruneProfile(dir); err != nil {
		return fmt.Errorf("profile folder: %w", err)
	}
	def := filepath.Join(dir, "Default")
	if err := os.MkdirAll(def, 0o700); err != nil {
		return fmt.Errorf("profile folder: %w", err)
	}
	if err := noHistory(filepath.Join(def, "Preferences")); err != nil {
		return fmt.Errorf("profile preferences: %w", err)
	}
	for _, name := range blocked {
		f, err := os.OpenFile(filepath.Join(def, name), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err != nil {
			return fmt.Errorf("profile sessions: %w", err)
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	return nil
}

// pruneProfile removes from a profile's folder everything it does not keep
// (profileKeeps); the browser must not be running.
func pruneProfile(dir string) error {
	var prune func(rel string) error
	prune = func(rel string) error {
		entries, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(rel)))
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		for _, e := range entries {
			sub := e.Name()
			if rel != "" {
				sub = rel + "/" + sub
			}
			all, part := kept(sub)
			switch {
			case all && !e.IsDir():
			case (all || part) && e.IsDir():
				if err := prune(sub); err != nil {
					return err
				}
			default:
				if err := os.RemoveAll(filepath.Join(dir, filepath.FromSlash(sub))); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return prune("")
}

// noHistory sets history.saving_disabled in a Preferences file, keeping the
// rest of it.
func noHistory(path string) error {
	prefs := map[string]any{}
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return err
	default:
		if json.Unmarshal(b, &prefs) != nil {
			prefs = map[string]any{} // damaged: Chromium would start afresh too
		}
	}
	history, _ := prefs["history"].(map[string]any)
	if history == nil {
		history = map[string]any{}
	}
	history["saving_disabled"] = true
	prefs["history"] = history
	// No offer to save a password, an address or a card: their stores
	// (Login Data, Web Data) would keep what a job typed.
	prefs["credentials_enable_service"] = false
	prefs["autofill"] = map[string]any{"enabled": false, "profile_enabled": false, "credit_card_enabled": false}
	out, err := json.Marshal(prefs)
	if err != nil {
		return err
	}
	tmp := path + ".cdpmcp"
	if err := os.WriteFile(tmp, out, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
