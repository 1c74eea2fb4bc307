package pagemodel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/snapshot"
	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/protocol/runtime"
)

var errNotLooked = errors.New("past the bound on frames")

// childLookup is the frame one <iframe> shows, or why it shows none.
type childLookup struct {
	frame cdpclient.Frame
	err   error
}

// childFrames finds the frames the <iframe>s a walk of frame parent listed
// show, the last n of them (the walk splices from the last), all at once:
// each is a round trip for the element and one for its frame id, and
// neither waits for another <iframe>'s. An entry past the n is errNotLooked.
func childFrames(ctx context.Context, d cdpclient.Door, parent cdpclient.Frame, frames []frameAt, n int) []childLookup {
	out := make([]childLookup, len(frames))
	for i := range out {
		out[i].err = errNotLooked
	}
	var wg sync.WaitGroup
	for i := len(frames) - 1; i >= 0 && i >= len(frames)-n; i-- {
		wg.Go(func() {
			out[i].frame, out[i].err = childFrame(ctx, d, parent, frames[i].Ref)
		})
	}
	wg.Wait()
	return out
}

// childFrame finds the frame an <iframe> (by its ref in frame parent) shows,
// in one round trip: the <iframe>'s window, serialized deep, names its frame
// (the browser's frame id), whether the frame runs in this process or not.
func childFrame(ctx context.Context, d cdpclient.Door, parent cdpclient.Frame, ref int) (cdpclient.Frame, error) {
	var child cdpclient.Frame
	err := d.Frames().In(ctx, parent, func(w *cdpclient.World) error {
		r, err := w.Client().Runtime.Evaluate(ctx, runtime.NewEvaluateArgs(fmt.Sprintf("__cdpmcp.get(%d)?.contentWindow ?? null", ref)).
			SetContextID(w.ID()).SetSilent(true).SetObjectGroup(w.Group()).SetSerializationOptions(windowOnly))
		if err != nil || r.ExceptionDetails != nil {
			return fmt.Errorf("iframe %d is gone", ref)
		}
		var win struct {
			Context string `json:"context"`
		}
		if v := r.Result.DeepSerializedValue; v == nil || v.Type != "window" || json.Unmarshal(v.Value, &win) != nil || win.Context == "" {
			return fmt.Errorf("iframe %d has no frame", ref)
		}
		child = w.Child(page.FrameID(win.Context))
		return nil
	})
	return child, err
}

// windowOnly serializes a window as its frame id (WebDriver BiDi's deep
// serialization, to depth 0: nothing inside it).
var windowOnly = runtime.SerializationOptions{Serialization: "deep", MaxDepth: new(0)}

// onlyChild is the frame that frame f shows when the browser's frame tree
// (cdpclient.FrameDoor.Tree) says it shows exactly one.
func onlyChild(d cdpclient.Door, f cdpclient.Frame, tree map[string][]string) (cdpclient.Frame, bool) {
	id := f.ID()
	if id == "" {
		id = d.Frames().Main()
	}
	if kids := tree[id]; len(kids) == 1 {
		return d.Frames().ChildOf(f, kids[0]), true
	}
	return cdpclient.Frame{}, false
}

// walkGuessed walks frame guess, which the <iframe> with ref in frame
// parent is likely to show, while childFrame finds the frame it does show:
// the walk is the answer when the two agree; else that frame is walked (the
// guess's walk handed out refs in its own frame, which stay right there).
func walkGuessed(ctx context.Context, d cdpclient.Door, parent cdpclient.Frame, ref int, guess cdpclient.Frame,
	walk func(cdpclient.Frame) (snapshot.Model, error)) (snapshot.Model, error) {
	found := make(chan childLookup, 1)
	go func() {
		var l childLookup
		l.frame, l.err = childFrame(ctx, d, parent, ref)
		found <- l
	}()
	sub, err := walk(guess)
	l := <-found
	switch {
	case l.err != nil:
		return snapshot.Model{}, l.err
	case l.frame != guess:
		return walk(l.frame)
	}
	return sub, err
}
