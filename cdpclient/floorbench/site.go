package main

import (
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// site serves the bench's fixture pages as mcpbench.mjs does: the same files,
// the same login (POST /login with alice / correct horse sets a session cookie
// and redirects to the dashboard, which wants that cookie), no caching.
type site struct {
	dir  string
	base string // http://127.0.0.1:PORT, no trailing slash
	srv  *http.Server
}

var sessionCookie = regexp.MustCompile(`(?:^|;\s*)session=`)

func startSite(dir string) (*site, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &site{dir: dir, base: "http://" + ln.Addr().String()}
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serve)}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

func (s *site) close() { _ = s.srv.Close() }

func (s *site) serve(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	p := r.URL.Path
	switch {
	case p == "/favicon.ico":
		w.WriteHeader(http.StatusNoContent)
		return
	case p == "/login" && r.Method == http.MethodPost:
		_ = r.ParseForm()
		if r.PostForm.Get("username") == "alice" && r.PostForm.Get("password") == "correct horse" {
			w.Header().Set("Set-Cookie", "session=alice; Path=/; SameSite=Lax")
			w.Header().Set("Location", "/dashboard.html")
		} else {
			w.Header().Set("Location", "/login.html?error=1")
		}
		w.WriteHeader(http.StatusSeeOther)
		return
	case p == "/dashboard.html" && !sessionCookie.MatchString(r.Header.Get("Cookie")):
		w.Header().Set("Location", "/login.html?error=auth")
		w.WriteHeader(http.StatusSeeOther)
		return
	}
	name, err := url.PathUnescape(p)
	file := filepath.Join(s.dir, filepath.FromSlash(name))
	if err != nil || !strings.HasPrefix(file, s.dir+string(filepath.Separator)) || filepath.Ext(file) == ".mjs" {
		http.NotFound(w, r)
		return
	}
	body, err := os.ReadFile(file)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	types := map[string]string{".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css"}
	if t, ok := types[filepath.Ext(file)]; ok {
		w.Header().Set("Content-Type", t)
	}
	_, _ = w.Write(body)
}
