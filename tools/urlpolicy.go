package tools

import (
	"net/url"
	"strings"
)

// checkNavURL refuses URLs a client may not open: a missing scheme (with a
// suggestion), local files and browser-internal pages unless allowed, and script
// URLs in read-only mode.
func (s *Server) checkNavURL(raw string) error {
	raw = strings.TrimSpace(raw)
	lower := strings.ToLower(raw)
	if !strings.Contains(raw, "://") && !strings.HasPrefix(lower, "about:") && !strings.HasPrefix(lower, "data:") &&
		!strings.HasPrefix(lower, "javascript:") {
		return badArg("include the scheme, e.g. https://"+raw+" (or http:// for a local server)", "%q has no scheme", raw)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return badArg("give an absolute URL such as https://example.com/", "%q is not a valid URL", raw)
	}
	scheme := strings.ToLower(u.Scheme)
	switch {
	case scheme == "http" || scheme == "https":
		if u.Host == "" {
			return badArg("give an absolute URL such as https://example.com/", "%q has no host", raw)
		}
		return nil
	case scheme == "about":
		return nil
	case scheme == "javascript" || scheme == "data":
		if s.cfg.ReadOnly {
			return badArg("read-only mode only opens web pages (http, https)", "%s: URLs are refused in read-only mode", scheme)
		}
		return nil
	case scheme == "file":
		return badArg("local files are not opened by this server", "file: URLs are refused")
	}
	return badArg("only http, https and about:blank can be opened", "%s: URLs are refused", scheme)
}
