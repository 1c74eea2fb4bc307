package cdpclient

import (
	"context"

	"github.com/mafredri/cdp/protocol/runtime"
)

// releaseObjects frees the remote objects of an operation that finished (its
// object group), in the background: the next operation uses a group of its
// own.
func (p *Page) releaseObjects(group string, frames map[*frameSession]bool) {
	if group == "" {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), cdpCallTimeout)
		defer cancel()
		args := runtime.NewReleaseObjectGroupArgs(group)
		_ = p.c.Runtime.ReleaseObjectGroup(ctx, args)
		for f := range frames {
			_ = f.c.Runtime.ReleaseObjectGroup(ctx, args)
		}
	}()
}
