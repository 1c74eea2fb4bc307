package cdpclient

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

var (
	fuzzPageOnce sync.Once
	fuzzPage     *Page
)

// FuzzSelector feeds arbitrary selectors to a real page: each one finds an
// element, is NOT_FOUND, or is refused as malformed with a hint; never another
// error, a hang or a crash.
func FuzzSelector(f *testing.F) {
	for _, s := range []string{"#inc", "button", "a[href]", "#host >>> #inner", "div:has(> p)", "##", "a[[", "*", ":root", "x-host", "\\", "'\"", "button:nth-child(2n+1)", "[role=tab]", "input[type=file]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sel string) {
		fuzzPageOnce.Do(func() {
			ctx, cancel := context.WithTimeout(context.Background(), testbound.Bound())
			defer cancel()
			bc, err := testBrowser.NewContext(ctx)
			if err == nil {
				fuzzPage, err = bc.NewPage(ctx)
			}
			if err == nil {
				err = outcome(fuzzPage.Navigate(ctx, testSite.URL("/actions.html"), WaitLoad))
			}
			if err != nil {
				t.Fatalf("set up: %v", err)
			}
		})
		if sel == "" {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), testbound.Scale(5*time.Second))
		defer cancel()
		err := fuzzPage.do(ctx, func(ctx context.Context) error {
			_, err := fuzzPage.Resolve(ctx, Target{Selector: sel})
			return err
		})
		var ae *ArgError
		var e *Error
		switch {
		case err == nil:
		case errors.As(err, &ae):
			if ae.Hint == "" {
				t.Fatalf("%q: refused without a hint", sel)
			}
		case errors.As(err, &e) && e.Code == CodeNotFound:
		default:
			t.Fatalf("selector %q: %v (%T)", sel, err, err)
		}
	})
}
