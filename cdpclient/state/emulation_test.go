package state

import (
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/eval"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/google/go-cmp/cmp"
)

// A tab emulates a device, media features, locale, time zone, position,
// network and CPU as the page sees them; reset gives the browser's own back.
func TestEmulate(t *testing.T) {
	t.Parallel()
	p, ctx := cdptest.Open(t, "/home.html")
	read := `JSON.stringify([screen.width, screen.height, devicePixelRatio, navigator.userAgent.includes('iPhone'),
		matchMedia('(prefers-color-scheme: dark)').matches, matchMedia('(prefers-reduced-motion: reduce)').matches,
		Intl.DateTimeFormat().resolvedOptions().timeZone, new Intl.NumberFormat().format(1234.5), navigator.onLine, navigator.maxTouchPoints > 0])`
	look := func() string {
		out, err := eval.Evaluate(ctx, p, read, eval.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	before := look()
	desc, err := Emulate(ctx, p, Emulation{Device: "iPhone 15", ColorScheme: "dark", ReducedMotion: "reduce",
		Locale: "de-DE", Timezone: "Asia/Tokyo", Network: "offline", CPU: 2, Geo: &Geo{Latitude: 48.85, Longitude: 2.35}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"iPhone 15: viewport 393×852 at 3×", "mobile with touch", "color scheme dark", "time zone Asia/Tokyo", "network offline", "position 48.85,2.35", "CPU 2× slower"} {
		if !strings.Contains(desc, want) {
			t.Errorf("description lacks %q: %s", want, desc)
		}
	}
	if diff := cmp.Diff(`"[393,852,3,true,true,true,\"Asia/Tokyo\",\"1.234,5\",false,true]"`, look()); diff != "" {
		t.Errorf("what the page sees (-want +got):\n%s", diff)
	}
	pos, err := eval.Evaluate(ctx, p, `new Promise((ok, no) => navigator.geolocation.getCurrentPosition((p) => ok(p.coords.latitude + ',' + p.coords.longitude), (e) => no(new Error(e.message))))`, eval.Options{AwaitPromise: true})
	if err != nil || pos != `"48.85,2.35"` {
		t.Errorf("geolocation = %s %v", pos, err)
	}
	if _, err := Emulate(ctx, p, Emulation{Width: 800, Height: 600}); err != nil {
		t.Fatal(err)
	}
	if got := look(); !strings.HasPrefix(got, `"[800,600,3,`) {
		t.Errorf("after a resize the page sees %s", got)
	}
	if desc, err := Emulate(ctx, p, Emulation{Reset: true}); err != nil || !strings.Contains(desc, "nothing") {
		t.Fatalf("reset: %s %v", desc, err)
	}
	if got := look(); got != before {
		t.Errorf("after reset the page sees %s, before it saw %s", got, before)
	}
	if _, err := Emulate(ctx, p, Emulation{Device: "Nokia 3310"}); err == nil || !strings.Contains(err.(*cdpclient.ArgError).Hint, "iPhone 15") {
		t.Errorf("an unknown device: %v", err)
	}
}
