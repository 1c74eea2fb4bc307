package jobs

import (
	"context"

	"github.com/cdpmcp/cdpmcp/actions"
	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
)

// tabEnv is the action environment of a job's tab: the catalogue's actions
// (what every tool call runs) act there, under the server's policy, and what
// they show is redacted with the tab's tenant's secrets. The tab becomes its
// context's current one, which actions without a page id act on.
func tabEnv(tab *cdpclient.Page, readOnly bool, policy *origins.List) *actions.Env {
	bc := tab.Context()
	bc.SetCurrent(tab)
	return &actions.Env{
		Context:  func(context.Context) (*cdpclient.BrowserContext, error) { return bc, nil },
		ReadOnly: readOnly, Origins: policy, Secrets: bc.Secrets(),
	}
}
