package state

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
)

// Cookie is a browser cookie, in the fields of Playwright's storage-state
// files. Expires is seconds since the epoch, -1 for a session cookie.
type Cookie struct {
	Name     string  `json:"name"`
	Value    string  `json:"value"`
	Domain   string  `json:"domain"`
	Path     string  `json:"path"`
	Expires  float64 `json:"expires"`
	HTTPOnly bool    `json:"httpOnly"`
	Secure   bool    `json:"secure"`
	SameSite string  `json:"sameSite,omitempty"`
	// PartitionKey is kept as the browser gave it, for partitioned cookies.
	PartitionKey json.RawMessage `json:"partitionKey,omitempty"`
}

// browserCall sends a browser-level command that takes the context's id
// (left out for the default context).
func browserCall(ctx context.Context, bc *cdpclient.BrowserContext, method string, params map[string]any, out any) error {
	if params == nil {
		params = map[string]any{}
	}
	if id := bc.ID(); id != "" {
		params["browserContextId"] = id
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return err
	}
	reply, err := bc.Browser().Raw(ctx, method, raw)
	if err != nil || out == nil {
		return err
	}
	return json.Unmarshal(reply, out)
}

// Cookies returns the context's cookies.
func Cookies(ctx context.Context, bc *cdpclient.BrowserContext) ([]Cookie, error) {
	var r struct {
		Cookies []Cookie `json:"cookies"`
	}
	if err := browserCall(ctx, bc, "Storage.getCookies", nil, &r); err != nil {
		return nil, err
	}
	for i := range r.Cookies {
		if r.Cookies[i].Expires == 0 {
			r.Cookies[i].Expires = -1
		}
	}
	return r.Cookies, nil
}

// SetCookies adds (or replaces) cookies in the context. A cookie needs a
// domain, or a URL it belongs to (given as url; its host becomes the domain).
func SetCookies(ctx context.Context, bc *cdpclient.BrowserContext, cookies []Cookie, forURL string) error {
	params := make([]map[string]any, 0, len(cookies))
	for _, c := range cookies {
		if c.Name == "" {
			return cdpclient.ArgErrorf(`give the cookie a name, e.g. {"name":"session","value":"abc","url":"https://example.com"}`, "a cookie has no name")
		}
		p := map[string]any{"name": c.Name, "value": c.Value, "httpOnly": c.HTTPOnly, "secure": c.Secure}
		switch {
		case c.Domain != "":
			p["domain"] = c.Domain
			p["path"] = "/"
		case forURL != "":
			u, err := url.Parse(forURL)
			if err != nil || u.Host == "" {
				return cdpclient.ArgErrorf("give an absolute URL such as https://example.com/", "%q is not a URL a cookie can belong to", forURL)
			}
			p["url"] = forURL
		default:
			return cdpclient.ArgErrorf(`give the cookie's url (or domain), e.g. {"url":"https://example.com"}`, "cookie %q has no url or domain", c.Name)
		}
		if c.Path != "" {
			p["path"] = c.Path
		}
		if c.Expires > 0 {
			p["expires"] = c.Expires
		}
		if c.SameSite != "" {
			p["sameSite"] = c.SameSite
		}
		if len(c.PartitionKey) > 0 {
			p["partitionKey"] = c.PartitionKey
		}
		params = append(params, p)
	}
	return browserCall(ctx, bc, "Storage.setCookies", map[string]any{"cookies": params}, nil)
}

// DeleteCookies removes the context's cookies named name (and on domain, if
// given); it returns how many it removed. An empty name clears them all.
func DeleteCookies(ctx context.Context, bc *cdpclient.BrowserContext, name, domain string) (int, error) {
	all, err := Cookies(ctx, bc)
	if err != nil {
		return 0, err
	}
	var keep []Cookie
	for _, c := range all {
		if name != "" && (c.Name != name || (domain != "" && strings.TrimPrefix(c.Domain, ".") != strings.TrimPrefix(domain, "."))) {
			keep = append(keep, c)
		}
	}
	removed := len(all) - len(keep)
	if removed == 0 {
		return 0, nil
	}
	if err := browserCall(ctx, bc, "Storage.clearCookies", nil, nil); err != nil {
		return 0, err
	}
	if len(keep) > 0 {
		if err := SetCookies(ctx, bc, keep, ""); err != nil {
			return 0, fmt.Errorf("put back the other cookies: %w", err)
		}
	}
	return removed, nil
}
