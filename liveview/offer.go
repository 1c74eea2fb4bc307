package liveview

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/live"
)

// Why an offer ended, as the person is told.
const (
	endDone      = "You handed the tab back. The job goes on; you can close this page."
	endGaveUp    = "You gave up. The job has stopped; you can close this page."
	endWithdrawn = "The job no longer waits for a person (it was resumed, cancelled or has ended). This view is closed."
	endExpired   = "This view has expired: no one handed the tab back in time. The job has stopped waiting."
	endReplaced  = "The job asked for a person again; this view is closed (the new link is in its status)."
	endClosed    = "The tab was closed. This view is closed."
	endShutdown  = "cdpmcp is shutting down. This view is closed."
)

// offer is an Offer while it is open.
type offer struct {
	Offer
	srv   *Server
	id    string   // names it in logs and in the secrets registry; not a secret
	token [32]byte // SHA-256 of the URL's token
	ended chan struct{}

	mu      sync.Mutex
	timer   *time.Timer
	claim   claim  // who holds it (claim.go)
	why     string // why it ended, once it did
	leaving string // what ends it when the Done or GiveUp under way returns
	input   sync.Mutex
	typed   *typedText
	resized bool // the tab's viewport follows the viewer: reset at the end
}

func newOffer(s *Server, o Offer, token [32]byte) *offer {
	id := make([]byte, 6)
	_, _ = rand.Read(id)
	of := &offer{Offer: o, srv: s, id: hex.EncodeToString(id), token: token, ended: make(chan struct{})}
	of.typed = &typedText{reg: o.Secrets, owner: "liveview:" + of.id}
	return of
}

// end closes the offer once, for why: its URL is refused from then on and its
// viewers are told. What the person typed stays redacted for good, and the tab
// gets its own viewport back.
func (of *offer) end(why string) {
	of.mu.Lock()
	if of.why != "" {
		of.mu.Unlock()
		return
	}
	if of.leaving != "" {
		why = of.leaving
	}
	of.why = why
	resized, timer := of.resized, of.timer
	of.mu.Unlock()
	if timer != nil {
		timer.Stop()
	}
	of.srv.forget(of)
	close(of.ended)
	of.typed.keep()
	if resized && of.Tab.Usable() == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		if err := live.ResetViewport(ctx, of.Tab); err != nil {
			slog.Debug("reset a tab's viewport after the live view", "offer", of.id, "err", err)
		}
	}
	slog.Info("live view ended", "offer", of.id, "key", of.Key)
}

// reason returns why the offer ended, or "" while it is open.
func (of *offer) reason() string {
	of.mu.Lock()
	defer of.mu.Unlock()
	return of.why
}

// handBack runs the person's Done (give false) or Give up (give true). The
// offer ends with the person's words if it worked; else it stays open and the
// error is theirs to see.
func (of *offer) handBack(ctx context.Context, giveUp bool, reason string) error {
	why := endDone
	if giveUp {
		why = endGaveUp
	}
	of.mu.Lock()
	if of.why != "" {
		of.mu.Unlock()
		return errEnded
	}
	of.leaving = why
	of.mu.Unlock()
	var err error
	switch {
	case giveUp && of.GiveUp != nil:
		err = of.GiveUp(ctx, reason)
	case !giveUp && of.Done != nil:
		err = of.Done(ctx)
	}
	if err != nil {
		of.mu.Lock()
		of.leaving = ""
		of.mu.Unlock()
		return err
	}
	of.end(why)
	return nil
}
