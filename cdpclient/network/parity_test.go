package network

import (
	"context"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// clickShows clicks sel on the parity API page (fixtures/pages/parity/api.html)
// and waits until its #out shows want.
func clickShows(t *testing.T, ctx context.Context, p *cdpclient.Page, sel, want string) {
	t.Helper()
	if err := cdpclient.Outcome(p.Click(ctx, cdpclient.Target{Selector: sel}, cdpclient.ClickOptions{})); err != nil {
		t.Fatal(err)
	}
	testbound.Until(t, "after "+sel+" the page shows "+want, func() bool {
		return strings.Contains(cdptest.Text(t, ctx, p, "#out"), want)
	})
}
