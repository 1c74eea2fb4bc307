package jobs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// A named profile keeps what later jobs need (cookies, storage) and nothing
// of where its jobs went: Chromium would keep every URL it visited in the
// profile's history, session and HTTP cache, and a sign-in form sent by GET
// puts the password in its URL. So the profile's browser saves no history
// (the history.saving_disabled preference), keeps no disk cache
// (profileArgs) and cannot write its session (a file stands where the
// Sessions folder would be).

// profileArgs are the launch flags of a named profile's browser.
func profileArgs() []string { return []string{"--disk-cache-dir=" + os.DevNull} }

// prepareProfile readies a named profile's folder before its browser starts.
func prepareProfile(dir string) error {
	def := filepath.Join(dir, "Default")
	if err := os.MkdirAll(def, 0o700); err != nil {
		return fmt.Errorf("profile folder: %w", err)
	}
	if err := noHistory(filepath.Join(def, "Preferences")); err != nil {
		return fmt.Errorf("profile preferences: %w", err)
	}
	sessions := filepath.Join(def, "Sessions")
	if fi, err := os.Lstat(sessions); err == nil && fi.Mode().IsRegular() {
		return nil
	}
	if err := os.RemoveAll(sessions); err != nil { // an older cdpmcp's, with its URLs
		return fmt.Errorf("profile sessions: %w", err)
	}
	f, err := os.OpenFile(sessions, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("profile sessions: %w", err)
	}
	return f.Close()
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
	if history["saving_disabled"] == true {
		return nil
	}
	history["saving_disabled"] = true
	prefs["history"] = history
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
