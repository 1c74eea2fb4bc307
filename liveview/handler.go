package liveview

import (
	"embed"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"
)

//go:embed static
var static embed.FS

const cookieName = "cdpmcp_live"

// Handler serves the live view under /live/: the page at /live/TOKEN, its
// frame stream, input and buttons below it, and its script and style at
// /live/static/. It needs no other authentication: the token is the key,
// and only the browser whose page asked for the tab first gets in
// (claim.go).
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		secure(w)
		rest, ok := strings.CutPrefix(r.URL.Path, "/live/")
		if !ok {
			http.NotFound(w, r)
			return
		}
		if name, ok := strings.CutPrefix(rest, "static/"); ok {
			serveStatic(w, r, name)
			return
		}
		token, action, _ := strings.Cut(rest, "/")
		of := s.lookup(token)
		if action == "" {
			s.servePage(w, r, of, token)
			return
		}
		if r.Method == http.MethodPost && !s.sameOrigin(r) {
			plainError(w, http.StatusForbidden, "cross-origin request refused")
			return
		}
		if of == nil || !of.admit(cookieOf(r)) {
			plainError(w, http.StatusGone, "this live view is closed or not yours")
			return
		}
		switch {
		case action == "frames" && r.Method == http.MethodGet:
			of.serveFrames(w, r)
		case action == "input" && r.Method == http.MethodPost:
			of.serveInput(w, r)
		case (action == "done" || action == "giveup") && r.Method == http.MethodPost:
			of.serveHandBack(w, r, action == "giveup")
		default:
			plainError(w, http.StatusNotFound, "no such live view call")
		}
	})
}

// secure sets the headers every answer carries: a strict CSP (the page's own
// script and style only), no framing, no referrer (the URL holds the token),
// no caching.
func secure(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob:; "+
		"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
}

// servePage serves the view, which shows nothing of the tab until its script
// asks for the frames, to any browser until one has claimed the offer (a
// link preview that fetches it takes nothing), then to that browser only (a
// reload); any other request gets the refusal page.
func (s *Server) servePage(w http.ResponseWriter, r *http.Request, of *offer, token string) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		plainError(w, http.StatusMethodNotAllowed, "GET only")
		return
	}
	if of == nil {
		if !s.sendOn(w, r, token) {
			refuse(w, http.StatusNotFound)
		}
		return
	}
	if r.Method == http.MethodHead {
		// A link preview or a mail scanner asking what is there: the
		// link stays the person's to open.
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		return
	}
	set, ok := of.open(cookieOf(r))
	if !ok {
		refuse(w, http.StatusGone)
		return
	}
	if set != "" {
		http.SetCookie(w, &http.Cookie{Name: cookieName, Value: set, Path: s.prefix + "/live/" + token, HttpOnly: true,
			SameSite: http.SameSiteStrictMode, Secure: strings.HasPrefix(s.base, "https:"),
			Expires: of.Expires, MaxAge: int(time.Until(of.Expires).Seconds()) + 1})
	}
	page, _ := static.ReadFile("static/view.html")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(page)
}

func refuse(w http.ResponseWriter, code int) {
	page, _ := static.ReadFile("static/refused.html")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	_, _ = w.Write(page)
}

func serveStatic(w http.ResponseWriter, r *http.Request, name string) {
	types := map[string]string{".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}
	i := strings.LastIndexByte(name, '.')
	b, err := static.ReadFile("static/" + name)
	if err != nil || i < 0 || types[name[i:]] == "" || strings.Contains(name, "/") {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", types[name[i:]])
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(b)
}

func (of *offer) serveInput(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxInputBody))
	if err != nil {
		plainError(w, http.StatusRequestEntityTooLarge, "input batch too large")
		return
	}
	events, err := decodeInput(body)
	if err != nil {
		plainError(w, http.StatusBadRequest, err.Error())
		return
	}
	if err := of.dispatch(r.Context(), events); err != nil {
		// Never log the events: they carry what the person types.
		code := http.StatusConflict
		if errors.Is(err, errBadInput) {
			code = http.StatusBadRequest
		}
		// A dialog the input opened is for the person to answer.
		answer(w, code, map[string]any{"error": inputError(err), "dialog": of.Tab.Dialog()})
		return
	}
	answer(w, http.StatusOK, map[string]any{"ok": true})
}

func inputError(err error) string {
	if errors.Is(err, errBadInput) {
		return err.Error()
	}
	return "the tab did not take the input: " + err.Error()
}

func (of *offer) serveHandBack(w http.ResponseWriter, r *http.Request, giveUp bool) {
	var body struct {
		Reason string `json:"reason"`
	}
	b, _ := io.ReadAll(http.MaxBytesReader(w, r.Body, 4<<10))
	_ = json.Unmarshal(b, &body)
	if err := of.handBack(r.Context(), giveUp, strings.TrimSpace(body.Reason)); err != nil {
		slog.Info("a person's hand-back was refused", "offer", of.id, "err", err)
		answer(w, http.StatusConflict, map[string]any{"error": err.Error()})
		return
	}
	answer(w, http.StatusOK, map[string]any{"ok": true, "message": of.reason()})
}

var errEnded = errors.New("this live view has already ended")

func answer(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func plainError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(code)
	_, _ = io.WriteString(w, msg+"\n")
}

func cookieOf(r *http.Request) string {
	c, err := r.Cookie(cookieName)
	if err != nil {
		return ""
	}
	return c.Value
}

// sameOrigin refuses requests a page of another origin sent (the cookie is
// SameSite=Strict too).
func (s *Server) sameOrigin(r *http.Request) bool {
	o := r.Header.Get("Origin")
	if o == "" {
		site := r.Header.Get("Sec-Fetch-Site")
		return site == "" || site == "same-origin"
	}
	u, err := url.Parse(o)
	return err == nil && (strings.EqualFold(u.Host, r.Host) || strings.EqualFold(u.Host, s.host))
}
