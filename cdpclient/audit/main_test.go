package audit

import (
	"context"
	"os"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/cdpclient/network"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// One browser and one fixtures server per test binary (cdptest); each test
// gets a fresh page in its own browser context so tests can run in parallel.
// The security audit reads the network feature's record of responses: it is
// set up first, as cmd/cdpmcp does.
func TestMain(m *testing.M) { network.Register(); os.Exit(cdptest.Main(m)) }

// newTestPage returns a blank page in a fresh browser context, closed when the
// test ends.
func newTestPage(t testing.TB) *cdpclient.Page { t.Helper(); return cdptest.NewPage(t) }

// testContext is a context bounded by the test bound, cancelled when the test
// ends.
func testContext(t testing.TB) context.Context { return testbound.Context(t) }
