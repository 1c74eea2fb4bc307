package permissions

import (
	"context"
	"errors"
	"os"
	"slices"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/google/go-cmp/cmp"
)

func TestMain(m *testing.M) { os.Exit(cdptest.Main(m)) }

// Names are taken as the Permissions API spells them, or as the protocol
// does; what would let pages reach the local network is never granted, and
// capture only by the server's owner.
func TestParse(t *testing.T) {
	t.Parallel()
	got, err := Parse([]string{"geolocation", " clipboard-read", "Notifications", "accelerometer", "gyroscope", "midiSysex", "camera"}, false)
	want := []string{"geolocation", "clipboardReadWrite", "notifications", "sensors", "midiSysex", "videoCapture"}
	if err != nil || !cmp.Equal(got, want) {
		t.Errorf("Parse = %v, %v; want %v", got, err, want)
	}
	for _, bad := range [][]string{{"nope"}, {"local-network-access"}, {"loopbackNetwork"}, {""}, nil} {
		var ae *cdpclient.ArgError
		if _, err := Parse(bad, false); !errors.As(err, &ae) || ae.Hint == "" {
			t.Errorf("Parse(%q) = %v, want an argument error with a hint", bad, err)
		}
	}
	var ae *cdpclient.ArgError
	if _, err := Parse([]string{"microphone"}, true); !errors.As(err, &ae) {
		t.Errorf("a tool granting the microphone: %v", err)
	}
	if _, err := Origin("about:blank"); err == nil {
		t.Error("about:blank has an origin to grant to")
	}
	if o, err := Origin("https://example.com:8443/path?q"); err != nil || o != "https://example.com:8443" {
		t.Errorf("Origin = %q, %v", o, err)
	}
}

// A grant shows in the page's own navigator.permissions; a reset takes it
// back but keeps the server's own grants (Setup), which hold on every
// origin.
func TestGrantAndReset(t *testing.T) {
	t.Parallel()
	ctx := testbound.Context(t)
	bc := cdptest.NewContext(t)
	notifications, _ := Parse([]string{"notifications"}, false)
	if err := Setup(notifications)(ctx, bc); err != nil {
		t.Fatal(err)
	}
	p, err := bc.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := cdpclient.Outcome(p.Navigate(ctx, cdptest.Site.URL("/home.html"), cdpclient.WaitLoad)); err != nil {
		t.Fatal(err)
	}
	state := func(name string) string {
		return cdptest.Eval(t, ctx, p, "navigator.permissions.query({name: '"+name+"'}).then(s => s.state)")
	}
	if got := state("notifications"); got != "granted" {
		t.Errorf("notifications after --grant-permissions: %s", got)
	}
	if got := state("geolocation"); got == "granted" {
		t.Fatalf("geolocation granted before anyone granted it")
	}
	geo, _ := Parse([]string{"geolocation"}, true)
	if err := Grant(ctx, bc, geo, p.URL()); err != nil {
		t.Fatal(err)
	}
	if got := state("geolocation"); got != "granted" {
		t.Errorf("geolocation after a grant: %s", got)
	}
	kept, err := Reset(ctx, bc)
	if err != nil || !slices.Equal(kept, []string{"notifications"}) {
		t.Errorf("Reset = %v, %v", kept, err)
	}
	if got := state("geolocation"); got == "granted" {
		t.Errorf("geolocation after a reset: %s", got)
	}
	if got := state("notifications"); got != "granted" {
		t.Errorf("the server's own grant after a reset: %s", got)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := Grant(cctx, bc, geo, ""); err == nil {
		t.Error("a grant on a cancelled context succeeded")
	}
}
