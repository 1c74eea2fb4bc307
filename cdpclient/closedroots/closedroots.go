// Package closedroots shows the page model the closed shadow roots of a page:
// roots a page attached with {mode: "closed"}, which no script can reach.
package closedroots

import (
	"context"
	"log/slog"
	"strconv"
	"sync"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/runtime"
)

// A page that attaches a shadow root with {mode: "closed"} hides it from every
// script, cdpmcp's isolated world too; a web component's buttons, fields and
// text would be missing from the snapshot, and a click on them would seem to
// hit their host. The browser shows closed roots over DevTools: the walk notes
// the elements that may hold one (custom elements without an open root, empty
// containers; js/closedroots.js), and revealClosedRoots asks the browser about
// each of them once (DOM.describeNode, all at once) and hands the closed roots
// it finds to the page model's world (DOM.resolveNode there), where they are
// read as open ones are. A page without such elements costs nothing; one with
// them, one round trip to the browser per element, once.

// MaxRounds bounds how many times one read asks about closed roots: a closed
// root inside another is found by the walk that reads the outer one.
const MaxRounds = 3

// Reveal asks the browser whether the elements the page model in w noted
// (Noted: its last walk's; Scan: those it finds in the whole document now)
// hold closed shadow roots, and gives the page model those that do. It
// answers how many it gave; a failure leaves the page model as it was.
func Reveal(ctx context.Context, w *cdpclient.World, from Source) int {
	total := 0
	for round := 0; round < MaxRounds; round++ {
		n, err := reveal(ctx, w, from)
		if err != nil {
			slog.Debug("closed shadow roots not read", "frame", w.Frame(), "err", err)
		}
		total += n
		// A walk notes what is in the roots found when it reads them; a
		// scan looks again at once.
		if n == 0 || from == Noted {
			break
		}
	}
	return total
}

// Source says which elements Reveal asks about.
type Source int

const (
	// Noted are the elements the last snapshot walk met (js/walk.js).
	Noted Source = iota
	// Scan looks through the whole document first (getContent, find).
	Scan
)

func reveal(ctx context.Context, w *cdpclient.World, from Source) (int, error) {
	c := w.Client()
	expr := "__cdpmcp.takeHosts()"
	if from == Scan {
		expr = "(() => { const a = __cdpmcp.scanHosts(); return a.length ? a : null; })()"
	}
	list, err := w.Eval(ctx, expr, false)
	if err != nil || list.ObjectID == nil {
		return 0, err
	}
	props, err := c.Runtime.GetProperties(ctx, runtime.NewGetPropertiesArgs(*list.ObjectID).SetOwnProperties(true))
	if err != nil {
		return 0, err
	}
	var hosts []runtime.RemoteObjectID
	for _, pr := range props.Result {
		if _, err := strconv.Atoi(pr.Name); err == nil && pr.Value != nil && pr.Value.ObjectID != nil {
			hosts = append(hosts, *pr.Value.ObjectID)
		}
	}
	// One question per element, sent together: the answers come in one
	// round trip's time.
	roots := make([]*dom.BackendNodeID, len(hosts))
	var wg sync.WaitGroup
	for i, h := range hosts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, err := c.DOM.DescribeNode(ctx, dom.NewDescribeNodeArgs().SetObjectID(h))
			if err != nil {
				return
			}
			for _, r := range d.Node.ShadowRoots {
				if r.ShadowRootType == dom.ShadowRootTypeClosed {
					id := r.BackendNodeID
					roots[i] = &id
				}
			}
		}()
	}
	wg.Wait()
	var args []runtime.CallArgument
	for i, id := range roots {
		if id == nil {
			continue
		}
		r, err := c.DOM.ResolveNode(ctx, dom.NewResolveNodeArgs().SetBackendNodeID(*id).
			SetExecutionContextID(w.ID()).SetObjectGroup(w.Group()))
		if err != nil || r.Object.ObjectID == nil {
			continue // gone meanwhile
		}
		args = append(args, runtime.CallArgument{ObjectID: &hosts[i]}, runtime.CallArgument{ObjectID: r.Object.ObjectID})
	}
	if len(args) == 0 {
		return 0, nil
	}
	_, err = c.Runtime.CallFunctionOn(ctx, runtime.NewCallFunctionOnArgs("function(...a) { __cdpmcp.setClosedRoots(...a); }").
		SetObjectID(*list.ObjectID).SetArguments(args))
	if err != nil {
		return 0, err
	}
	return len(args) / 2, nil
}
