package liveview

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"log/slog"
)

// The browser that shows the view first keeps it. Opening the URL hands a
// browser a cookie; the first browser whose page then asks for the frames
// (or sends input) with its cookie claims the offer, and from then on the
// view is that browser's alone. A link preview or a mail scanner that fetches
// the URL and runs no script takes nothing: the link stays the person's.

// maxPending bounds the cookies handed out before a claim: a scanner that
// fetches the link again and again does not grow the offer without end (the
// oldest is forgotten; its browser opens the URL again to get another).
const maxPending = 16

// claim is who holds an offer: nobody yet (the cookies handed out so far
// pending), or the browser with cookie.
type claim struct {
	claimed bool
	cookie  [32]byte   // SHA-256 of the claiming browser's cookie
	pending [][32]byte // SHA-256 of the cookies handed out before the claim
}

// open is a browser opening the view's URL: it returns the cookie value to
// set ("" to keep the one it sent) and whether it may see the page: any
// browser may before the offer is claimed, only the claiming one after.
func (of *offer) open(cookie string) (set string, ok bool) {
	of.mu.Lock()
	defer of.mu.Unlock()
	c := &of.claim
	h := sha256.Sum256([]byte(cookie))
	if c.claimed {
		return "", cookie != "" && subtle.ConstantTimeCompare(h[:], c.cookie[:]) == 1
	}
	if cookie != "" && c.isPending(h) {
		return "", true // a reload before the page asked for anything
	}
	raw := make([]byte, 32)
	_, _ = rand.Read(raw)
	set = base64.RawURLEncoding.EncodeToString(raw)
	if len(c.pending) == maxPending {
		c.pending = c.pending[1:]
	}
	c.pending = append(c.pending, sha256.Sum256([]byte(set)))
	return set, true
}

// admit reports whether a call of the view's page (frames, input, the
// buttons) comes from the browser that holds the offer; the first such call
// from a browser that opened the URL claims it for that browser.
func (of *offer) admit(cookie string) bool {
	if cookie == "" {
		return false
	}
	of.mu.Lock()
	defer of.mu.Unlock()
	c := &of.claim
	h := sha256.Sum256([]byte(cookie))
	if c.claimed {
		return subtle.ConstantTimeCompare(h[:], c.cookie[:]) == 1
	}
	if !c.isPending(h) {
		return false
	}
	c.claimed, c.cookie, c.pending = true, h, nil
	slog.Info("a person opened the live view", "offer", of.id, "key", of.Key)
	return true
}

func (c *claim) isPending(h [32]byte) bool {
	for _, p := range c.pending {
		if subtle.ConstantTimeCompare(h[:], p[:]) == 1 {
			return true
		}
	}
	return false
}
