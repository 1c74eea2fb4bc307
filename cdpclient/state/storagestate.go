package state

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/internal/safefs"
)

// StorageState is what a session's sign-ins are made of: its cookies and the
// localStorage of its origins, in the format of Playwright's storage-state
// files (so either tool reads the other's).
type StorageState struct {
	Cookies []Cookie        `json:"cookies"`
	Origins []OriginStorage `json:"origins"`
}

// OriginStorage is one origin's localStorage.
type OriginStorage struct {
	Origin       string      `json:"origin"`
	LocalStorage []NameValue `json:"localStorage"`
}

// NameValue is one localStorage item.
type NameValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// ReadFile reads a storage-state file.
func ReadFile(path string) (*StorageState, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("storage state: %w", err)
	}
	var st StorageState
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, fmt.Errorf("storage state %s: not a storage-state file (cookies, origins): %w", path, err)
	}
	return &st, nil
}

// WriteFile writes a storage-state file, readable by its owner only: it
// holds sign-ins.
func WriteFile(path string, st *StorageState) error {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	if err := safefs.WriteUserFile(path, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("storage state: %w", err)
	}
	return nil
}

// Save returns the context's cookies and the localStorage of the origins its
// tabs show (the browser offers no list of every origin that stored
// something: open a tab on an origin to include it).
func Save(ctx context.Context, bc *cdpclient.BrowserContext) (*StorageState, error) {
	cookies, err := Cookies(ctx, bc)
	if err != nil {
		return nil, err
	}
	st := &StorageState{Cookies: cookies, Origins: []OriginStorage{}}
	seen := map[string]bool{}
	for _, p := range bc.Pages() {
		r, err := WebStorage(ctx, p, "local", "list", "", "")
		if err != nil || r.Origin == "" || r.Origin == "null" || seen[r.Origin] {
			continue
		}
		seen[r.Origin] = true
		o := OriginStorage{Origin: r.Origin, LocalStorage: []NameValue{}}
		for _, e := range r.Entries {
			o.LocalStorage = append(o.LocalStorage, NameValue{Name: e[0], Value: e[1]})
		}
		st.Origins = append(st.Origins, o)
	}
	sort.Slice(st.Origins, func(i, j int) bool { return st.Origins[i].Origin < st.Origins[j].Origin })
	return st, nil
}

// Loader is the set-up of every context (cdpclient.Options.SetupContext)
// that loads st into it: each session starts signed in.
func Loader(st *StorageState) func(ctx context.Context, bc *cdpclient.BrowserContext) error {
	return func(ctx context.Context, bc *cdpclient.BrowserContext) error { return Load(ctx, bc, st) }
}

// Load puts a storage state into the context: its cookies at once; each
// origin's localStorage into the tabs showing that origin now, and into the
// first document of the origin the context opens later, before the page's
// scripts run (items the origin already holds are kept).
func Load(ctx context.Context, bc *cdpclient.BrowserContext, st *StorageState) error {
	if len(st.Cookies) > 0 {
		if err := SetCookies(ctx, bc, st.Cookies, ""); err != nil {
			return fmt.Errorf("load cookies: %w", err)
		}
	}
	pending := map[string][][2]string{}
	for _, o := range st.Origins {
		for _, it := range o.LocalStorage {
			pending[o.Origin] = append(pending[o.Origin], [2]string{it.Name, it.Value})
		}
	}
	for _, p := range bc.Pages() {
		r, err := WebStorage(ctx, p, "local", "list", "", "")
		if err != nil || pending[r.Origin] == nil {
			continue
		}
		for _, it := range pending[r.Origin] {
			if _, err := WebStorage(ctx, p, "local", "set", it[0], it[1]); err != nil {
				return fmt.Errorf("load localStorage of %s: %w", r.Origin, err)
			}
		}
		delete(pending, r.Origin)
	}
	s := seedOf(bc)
	s.mu.Lock()
	if s.origins == nil {
		s.origins = map[string][][2]string{}
	}
	for o, items := range pending {
		s.origins[o] = items
	}
	s.mu.Unlock()
	s.reseed(ctx)
	return nil
}
