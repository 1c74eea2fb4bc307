package permissions

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/cdpmcp/cdpmcp/cdpclient"
)

// defaults are the server's grants (Setup) a context was given, for Reset
// to give again. They live in the context's slot.
type defaults struct {
	mu    sync.Mutex
	types []string
}

type defaultsKey struct{}

func defaultsOf(bc *cdpclient.BrowserContext) *defaults {
	return bc.Door().Slot(defaultsKey{}, func() any { return &defaults{} }).(*defaults)
}

// Setup is the set-up of every browser context (cdpclient.Options.
// SetupContext) that grants types (from Parse) to every origin:
// --grant-permissions.
func Setup(types []string) func(ctx context.Context, bc *cdpclient.BrowserContext) error {
	return func(ctx context.Context, bc *cdpclient.BrowserContext) error {
		d := defaultsOf(bc)
		d.mu.Lock()
		d.types = append([]string(nil), types...)
		d.mu.Unlock()
		if err := grant(ctx, bc, types, ""); err != nil {
			return fmt.Errorf("--grant-permissions: %w", err)
		}
		return nil
	}
}

// Grant grants types (from Parse) in bc to origin (scheme://host[:port]), or
// to every origin when origin is "".
func Grant(ctx context.Context, bc *cdpclient.BrowserContext, types []string, origin string) error {
	if origin != "" {
		o, err := Origin(origin)
		if err != nil {
			return err
		}
		origin = o
	}
	return grant(ctx, bc, types, origin)
}

// Reset takes back every permission granted in bc, then grants the server's
// own (Setup) again. It returns those, as the protocol names them.
func Reset(ctx context.Context, bc *cdpclient.BrowserContext) ([]string, error) {
	args := map[string]any{}
	if bc.ID() != "" {
		args["browserContextId"] = bc.ID()
	}
	if err := call(ctx, bc, "Browser.resetPermissions", args); err != nil {
		return nil, err
	}
	d := defaultsOf(bc)
	d.mu.Lock()
	types := append([]string(nil), d.types...)
	d.mu.Unlock()
	if len(types) == 0 {
		return nil, nil
	}
	return types, grant(ctx, bc, types, "")
}

// Set sets one permission type's state for origin in bc: "granted",
// "denied" or "prompt" (what a page's query then answers).
func Set(ctx context.Context, bc *cdpclient.BrowserContext, typ, state, origin string) error {
	args := map[string]any{"permission": map[string]any{"name": descriptorName(typ)}, "setting": state, "origin": origin}
	if bc.ID() != "" {
		args["browserContextId"] = bc.ID()
	}
	return call(ctx, bc, "Browser.setPermission", args)
}

// Origin is the origin of a URL (scheme://host[:port]); an error for one
// that has none (about:blank, data:), as the browser could grant it nothing.
func Origin(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", cdpclient.ArgErrorf("give an origin such as https://example.com, or navigate to a web page first",
			"%q is not an http or https origin", raw)
	}
	return u.Scheme + "://" + u.Host, nil
}

func grant(ctx context.Context, bc *cdpclient.BrowserContext, types []string, origin string) error {
	args := map[string]any{"permissions": types}
	if origin != "" {
		args["origin"] = origin
	}
	if bc.ID() != "" {
		args["browserContextId"] = bc.ID()
	}
	return call(ctx, bc, "Browser.grantPermissions", args)
}

func call(ctx context.Context, bc *cdpclient.BrowserContext, method string, args map[string]any) error {
	raw, err := json.Marshal(args)
	if err != nil {
		return err
	}
	if _, err := bc.Browser().Raw(ctx, method, raw); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	return nil
}

// descriptorName is the Permissions API name of a protocol type, as
// Browser.setPermission takes it.
func descriptorName(typ string) string {
	switch typ {
	case "clipboardReadWrite":
		return "clipboard-read"
	case "clipboardSanitizedWrite":
		return "clipboard-write"
	case "videoCapture":
		return "camera"
	case "audioCapture":
		return "microphone"
	}
	return typ
}
