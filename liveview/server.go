// Package liveview lets a person take over a browser tab from their own
// browser and hand it back: a page served by cdpmcp that shows the tab live
// (its screencast) and passes the person's mouse, touch, keyboard and window
// size to it as the browser's own, trusted input. Each offer of a tab is
// reached by a URL holding a single-use random token; the first browser whose
// view asks for the tab keeps it (a link preview that only fetches the URL
// does not), and no other can.
package liveview

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
)

// DefaultTTL bounds an offer that names no expiry.
const DefaultTTL = 30 * time.Minute

// tokenBytes is the size of a token: 256 random bits.
const tokenBytes = 32

// ErrClosed is returned by Offer after Close.
var ErrClosed = errors.New("liveview: the live view is shut down")

// Server keeps the offers and serves the live view (Handler). Create it with
// New and end it with Close.
type Server struct {
	base   string
	prefix string // the base URL's path: where /live/ is below
	host   string // the base URL's host, an origin the viewer may send from

	mu        sync.Mutex
	byToken   map[[32]byte]*offer // by the SHA-256 of the URL's token
	byKey     map[string]*offer
	closed    bool
	elsewhere Elsewhere // other processes' offers (elsewhere.go)
}

// New returns a live view reached at baseURL (scheme, host and any path
// prefix, with no trailing slash, e.g. "http://127.0.0.1:8931"): offers' URLs
// are baseURL + "/live/" + token, and Handler must be served there.
func New(baseURL string) (*Server, error) {
	u, err := url.Parse(baseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("liveview: %q is not a base URL like http://127.0.0.1:8931", baseURL)
	}
	return &Server{base: strings.TrimSuffix(baseURL, "/"), prefix: strings.TrimSuffix(u.Path, "/"), host: u.Host,
		byToken: map[[32]byte]*offer{}, byKey: map[string]*offer{}}, nil
}

// BaseURL is where the live view is reached, with no trailing slash.
func (s *Server) BaseURL() string { return s.base }

// Offer makes tab available to a person and returns the URL where they take
// it over. An earlier offer with the same key ends. The offer ends when the
// person presses Done or Give up, when it is withdrawn, at its expiry, or when
// the tab closes; its URL is refused from then on.
func (s *Server) Offer(o Offer) (string, error) {
	if o.Tab == nil || o.Key == "" {
		return "", errors.New("liveview: an offer needs a key and a tab")
	}
	if o.Expires.IsZero() {
		o.Expires = time.Now().Add(DefaultTTL)
	}
	raw := make([]byte, tokenBytes)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("liveview: token: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(raw)
	of := newOffer(s, o, sha256.Sum256([]byte(token)))
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return "", ErrClosed
	}
	old := s.byKey[o.Key]
	s.byKey[o.Key] = of
	s.byToken[of.token] = of
	s.mu.Unlock()
	if old != nil {
		old.end(endReplaced)
	}
	of.mu.Lock()
	of.timer = time.AfterFunc(time.Until(o.Expires), func() { of.end(endExpired) })
	of.mu.Unlock()
	return s.base + "/live/" + token, nil
}

// Withdraw ends the offer made under key, if any: the job no longer waits.
func (s *Server) Withdraw(key string) {
	s.mu.Lock()
	of := s.byKey[key]
	s.mu.Unlock()
	if of != nil {
		of.end(endWithdrawn)
	}
}

// Waiting reports whether an offer under key is open.
func (s *Server) Waiting(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byKey[key] != nil
}

// Close ends every offer and refuses new ones. It returns once the viewers
// were told.
func (s *Server) Close() {
	s.mu.Lock()
	s.closed = true
	all := make([]*offer, 0, len(s.byKey))
	for _, of := range s.byKey {
		all = append(all, of)
	}
	s.mu.Unlock()
	for _, of := range all {
		of.end(endShutdown)
	}
}

// lookup finds the open offer a token belongs to.
func (s *Server) lookup(token string) *offer {
	if len(token) != base64.RawURLEncoding.EncodedLen(tokenBytes) {
		return nil
	}
	h := sha256.Sum256([]byte(token))
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byToken[h]
}

// forget removes an offer that ended (and only that one: a newer offer under
// the same key stays).
func (s *Server) forget(of *offer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byKey[of.Key] == of {
		delete(s.byKey, of.Key)
	}
	delete(s.byToken, of.token)
}

// Offer is a tab offered to a person.
type Offer struct {
	// Key names what waits (a job id, an agent run); one offer per key.
	Key string
	// Tab is the tab the person takes over.
	Tab *cdpclient.Page
	// Title says what waits ("job 01J… (login)"); Reason why a person is
	// needed. Both are shown to the person.
	Title, Reason string
	// Expires ends the offer (default: DefaultTTL from now).
	Expires time.Time
	// Done is called when the person hands the tab back; GiveUp when they
	// give up, with their reason. An error is shown to them and the offer
	// stays open. Either is called at most once, on the request's context.
	Done   func(ctx context.Context) error
	GiveUp func(ctx context.Context, reason string) error
	// Secrets, if set, learns what the person types, so that it is redacted
	// wherever it shows up again (status answers, logs, traces, artifacts).
	Secrets *secrets.Registry
}
