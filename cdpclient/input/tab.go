package input

import (
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
	d := p.Door()
	return &tab{page: p, d: d, c: d.Client()}
}
