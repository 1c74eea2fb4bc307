package cdpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"sort"
	"sync"

	"github.com/cdpmcp/cdpmcp/internal/safefs"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/protocol/runtime"
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

// ReadStorageState reads a storage-state file.
func ReadStorageState(path string) (*StorageState, error) {
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

// WriteStorageState writes a storage-state file, readable by its owner only:
// it holds sign-ins.
func WriteStorageState(path string, st *StorageState) error {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	if err := safefs.WriteUserFile(path, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("storage state: %w", err)
	}
	return nil
}

// StorageState returns the context's cookies and the localStorage of the
// origins its tabs show (the browser offers no list of every origin that
// stored something: open a tab on an origin to include it).
func (bc *BrowserContext) StorageState(ctx context.Context) (*StorageState, error) {
	cookies, err := bc.Cookies(ctx)
	if err != nil {
		return nil, err
	}
	st := &StorageState{Cookies: cookies, Origins: []OriginStorage{}}
	seen := map[string]bool{}
	for _, p := range bc.Pages() {
		r, err := p.WebStorage(ctx, "local", "list", "", "")
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

// LoadStorageState puts a storage state into the context: its cookies at
// once; each origin's localStorage into the tabs showing that origin now, and
// into the first document of the origin the context opens later, before the
// page's scripts run (items the origin already holds are kept).
func (bc *BrowserContext) LoadStorageState(ctx context.Context, st *StorageState) error {
	if len(st.Cookies) > 0 {
		if err := bc.SetCookies(ctx, st.Cookies, ""); err != nil {
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
		r, err := p.WebStorage(ctx, "local", "list", "", "")
		if err != nil || pending[r.Origin] == nil {
			continue
		}
		for _, it := range pending[r.Origin] {
			if _, err := p.WebStorage(ctx, "local", "set", it[0], it[1]); err != nil {
				return fmt.Errorf("load localStorage of %s: %w", r.Origin, err)
			}
		}
		delete(pending, r.Origin)
	}
	bc.seed.mu.Lock()
	if bc.seed.origins == nil {
		bc.seed.origins = map[string][][2]string{}
	}
	for o, items := range pending {
		bc.seed.origins[o] = items
	}
	bc.seed.mu.Unlock()
	bc.reseed(ctx)
	return nil
}

// storageSeed is the localStorage a context still has to put into the first
// document of each origin, and the scripts that do it, by session.
type storageSeed struct {
	mu      sync.Mutex
	origins map[string][][2]string
	scripts map[*cdp.Client]page.ScriptIdentifier
}

// seedBinding is the binding the seeding script calls, in cdpmcp's world.
const seedBinding = "__cdpmcpSeeded"

// seedCalls are the calls that register the seeding script on a new document
// session (see documentSetup), when the context has origins to seed: one
// request each, so they reach a paused target before it runs.
func (bc *BrowserContext) seedCalls(ctx context.Context, c *cdp.Client) []func() error {
	bc.seed.mu.Lock()
	origins, _ := json.Marshal(bc.seed.origins)
	empty := len(bc.seed.origins) == 0
	bc.seed.mu.Unlock()
	if empty {
		return nil
	}
	src := fmt.Sprintf("(%s)(%s, %q)", jsFunc("seedStorage"), origins, seedBinding)
	return []func() error{
		func() error {
			return c.Runtime.AddBinding(ctx, runtime.NewAddBindingArgs(seedBinding).SetExecutionContextName(worldName))
		},
		func() error {
			r, err := c.Page.AddScriptToEvaluateOnNewDocument(ctx, page.NewAddScriptToEvaluateOnNewDocumentArgs(src).SetWorldName(worldName))
			if err != nil {
				return fmt.Errorf("seed script: %w", err)
			}
			bc.seed.mu.Lock()
			if bc.seed.scripts == nil {
				bc.seed.scripts = map[*cdp.Client]page.ScriptIdentifier{}
			}
			bc.seed.scripts[c] = r.Identifier
			bc.seed.mu.Unlock()
			return nil
		},
	}
}

// seedSession (re)registers the seeding script, with the origins still to
// seed, on one session; with none left it removes it.
func (bc *BrowserContext) seedSession(ctx context.Context, c *cdp.Client) error {
	bc.seed.mu.Lock()
	old, had := bc.seed.scripts[c]
	origins, _ := json.Marshal(bc.seed.origins)
	left := len(bc.seed.origins)
	bc.seed.mu.Unlock()
	if had {
		_ = c.Page.RemoveScriptToEvaluateOnNewDocument(ctx, page.NewRemoveScriptToEvaluateOnNewDocumentArgs(old))
	}
	if left == 0 {
		bc.seed.mu.Lock()
		delete(bc.seed.scripts, c)
		bc.seed.mu.Unlock()
		return nil
	}
	if !had {
		if err := c.Runtime.AddBinding(ctx, runtime.NewAddBindingArgs(seedBinding).SetExecutionContextName(worldName)); err != nil {
			return fmt.Errorf("seed binding: %w", err)
		}
	}
	src := fmt.Sprintf("(%s)(%s, %q)", jsFunc("seedStorage"), origins, seedBinding)
	r, err := c.Page.AddScriptToEvaluateOnNewDocument(ctx, page.NewAddScriptToEvaluateOnNewDocumentArgs(src).SetWorldName(worldName))
	if err != nil {
		return fmt.Errorf("seed script: %w", err)
	}
	bc.seed.mu.Lock()
	if bc.seed.scripts == nil {
		bc.seed.scripts = map[*cdp.Client]page.ScriptIdentifier{}
	}
	bc.seed.scripts[c] = r.Identifier
	bc.seed.mu.Unlock()
	return nil
}

// reseed brings the seeding script of every document session of the context
// up to date.
func (bc *BrowserContext) reseed(ctx context.Context) {
	for _, p := range bc.Pages() {
		for _, h := range p.documentSessions() {
			if err := bc.seedSession(ctx, h); err != nil {
				slog.Debug("storage state script", "page", p.ID, "err", err)
			}
		}
	}
}

// onSeeded learns (Runtime.bindingCalled, on the read goroutine) that an
// origin got its localStorage, so later documents of it are left alone.
func (bc *BrowserContext) onSeeded(params json.RawMessage) {
	var ev struct {
		Name    string `json:"name"`
		Payload string `json:"payload"`
	}
	if json.Unmarshal(params, &ev) != nil || ev.Name != seedBinding {
		return
	}
	bc.seed.mu.Lock()
	_, pending := bc.seed.origins[ev.Payload]
	delete(bc.seed.origins, ev.Payload)
	bc.seed.mu.Unlock()
	if !pending {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), cdpCallTimeout)
		defer cancel()
		bc.reseed(ctx)
	}()
}
