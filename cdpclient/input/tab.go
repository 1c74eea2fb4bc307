package input

import (
	"context"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mafredri/cdp"
)

// tab is the page an input action runs on, as the action sees it: its door
// (cdpclient/doorinput.go) and the page session's client, which takes the
// input events.
type tab struct {
	page *cdpclient.Page
	d    cdpclient.Door
	c    *cdp.Client
}

func on(p *cdpclient.Page) *tab {
	t := &tab{page: p, d: p.Door()}
	// The client is the page session's for the page's life: the actions
	// use it under the rules of the ModeAct they run in.
	_, _ = t.d.Run(context.Background(), cdpclient.ModeBare, func(_ context.Context, c *cdp.Client) error {
		t.c = c
		return nil
	})
	return t
}
