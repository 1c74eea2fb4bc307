package cdpclient

import (
	"context"
	"log/slog"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/fetchguard"
	"github.com/cdpmcp/cdpmcp/cdpclient/navcheck"
	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
	"github.com/cdpmcp/cdpmcp/internal/poll"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/emulation"
)

// The request guard (cdpclient/fetchguard) enforces the origin policy on
// every request of every target it is attached to: pages (popups and
// window.open included, since they are attached paused), their out-of-process
// frames, dedicated, shared and service workers.

// PausedRequest is the part of Fetch.requestPaused the guard reads, and hands
// to a feature that answers requests (ContextHook.Paused).
type PausedRequest = fetchguard.PausedRequest

// pausedFor is the page a paused request is for, as the guard tells it: it
// learns what was refused, counts the request in flight until answered, and
// hands one the rules let through to its context's answers.
type pausedFor struct{ p *Page }

func (f pausedFor) Refused(url, why string) { f.p.logs.Refuse(url, why) }
func (f pausedFor) Pending(delta int32)     { f.p.paused.Add(delta) }
func (f pausedFor) Answer(ctx context.Context, c *cdp.Client, r *PausedRequest) (bool, error) {
	return f.p.bc.answerPaused(ctx, c, r)
}

// Policy returns the browser's origin policy (nil when none is set).
func (b *Browser) Policy() *origins.List { return b.policy }

// quietBeforeClose empties a tab that only the Fetch guard holds (origin rules,
// an attached browser's default context: no proxy of cdpmcp's) before it is
// closed. The guard stops seeing a closing tab's requests, and those it had
// paused go on: a beacon on pagehide, an EventSource reconnecting would get
// out. Loaded with about:blank first, with the guard's answers awaited, the
// page's last requests are refused; one that does not go is closed anyway.
// The page's own handlers do not run as it goes (pagehide, unload,
// visibilitychange): what they send while a document is torn down is not
// always paused by Fetch (on a loaded machine, beacons, keepalive fetches
// and images of an attached browser's default context reached a refused
// origin 2 times in 7 runs of TestEgress/Attached), and nothing a closing
// page says is the user's.
func (p *Page) quietBeforeClose(ctx context.Context) {
	if p.bc.b.policy.Empty() || p.bc.b.proc != nil || p.bc.own || p.usable() != nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := p.c.Emulation.SetScriptExecutionDisabled(ctx, emulation.NewSetScriptExecutionDisabledArgs(true)); err != nil {
		slog.Debug("stop the page's scripts before closing it", "page", p.ID, "err", err)
	}
	if err := p.navigate(ctx, "about:blank", "load"); err != nil {
		slog.Debug("empty the tab before closing it", "page", p.ID, "err", err)
	}
	_ = poll.Until(ctx, 20*time.Millisecond, func() (bool, error) { return p.paused.Load() == 0, nil })
}

// CheckNavigation says whether a client may open raw, before the browser is
// touched (navcheck.Navigation).
func CheckNavigation(policy *origins.List, raw string, readOnly bool) error {
	return navcheck.Navigation(policy, raw, readOnly)
}
