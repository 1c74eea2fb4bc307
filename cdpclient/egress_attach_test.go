package cdpclient

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// attachOwnGaps are the vectors that still get out of the contexts cdpmcp
// creates in an attached browser (they have the egress proxy, but the
// browser's flags are the user's): WebRTC sends UDP to STUN/TURN servers
// directly. docs/security.md says so.
var attachOwnGaps = []string{"webrtc"}

// fetchMisses are the vectors the Fetch guard alone does not stop, which is all
// there is in an attached browser's default context (the user's own tabs): the
// docs/security.md lists them. Preconnect and the browser's own connection attempts at
// navigations still open bare TCP connections there; no request is sent. A
// shared worker's first request sometimes slips past: Chromium resumes the
// paused worker before its interception takes hold (2 of 15 tries here).
// What a page sends as cdpmcp closes it (beaconclose, keepaliveclose,
// imgclose; an EventSource reconnecting) is held: Close empties the tab first.
var fetchMisses = []string{"websocket", "websocketstream", "webtransport", "webrtc", "speculationprefetch",
	"speculationprerender", "preconnect", "dnsprefetch", "sharedworker"}

// Attached to a browser cdpmcp did not start, with origin rules: in a context
// cdpmcp creates (one per HTTP session) every vector but WebRTC's UDP is held
// by the egress proxy; in the default context (the user's tabs, the only one
// over stdio) the Fetch guard holds every vector it sees: no request reaches
// the refused origin. TestEgress runs it.
func egressAttached(t *testing.T) {
	policy, err := origins.NewList([]string{"http://127.0.0.1:*"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testbound.Bound())
	defer cancel()
	user, err := launch(ctx, LaunchOptions{Headless: true}, nil) // the user's own browser
	if err != nil {
		t.Fatal(err)
	}
	defer user.close()
	b, err := Connect(ctx, Options{Endpoint: user.wsURL, Origins: policy})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()

	var own, def []networkVector
	for _, v := range networkVectors {
		if !v.defaultContext {
			own = append(own, v)
		}
		// A service worker would serve every later hostile page of the shared
		// default context; its requests pass the guard on its own target.
		if !slices.Contains(fetchMisses, v.name) && v.name != "serviceworker" {
			def = append(def, v)
		}
	}
	ownRuns := runVectors(ctx, own, map[*Browser]bool{b: false})
	defRuns := runVectors(ctx, def, map[*Browser]bool{b: true})
	time.Sleep(500 * time.Millisecond)
	for _, r := range ownRuns {
		switch {
		case r.err != nil:
			t.Errorf("own context, %s: %v", r.v.name, r.err)
		case r.srv.Hits() != 0 && !slices.Contains(attachOwnGaps, r.v.name):
			t.Errorf("own context, %s: the refused origin was reached %d times: %v", r.v.name, r.srv.Hits(), r.srv.Log())
		case r.srv.Hits() != 0:
			t.Logf("own context, %s (a documented gap): %v", r.v.name, r.srv.Log())
		}
		r.close()
	}
	for _, r := range defRuns {
		var requests []string
		for _, line := range r.srv.Log() {
			if !strings.HasPrefix(line, "tcp ") {
				requests = append(requests, line)
			}
		}
		if r.err != nil {
			t.Errorf("default context, %s: %v", r.v.name, r.err)
		} else if len(requests) != 0 {
			t.Errorf("default context, %s: the Fetch guard let through %v", r.v.name, requests)
		}
		r.close()
	}
}
