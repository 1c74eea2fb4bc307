package cdpclient

import (
	"testing"
)

func TestNavigate(t *testing.T) {
	t.Parallel()
	p := newTestPage(t)
	ctx := testContext(t)
	if err := p.Navigate(ctx, testSite.URL("/home.html"), WaitLoad); err != nil {
		t.Fatalf("Navigate: %v", err)
	}
	if got, want := p.URL(), testSite.URL("/home.html"); got != want {
		t.Errorf("URL() = %q, want %q", got, want)
	}
	if err := p.Navigate(ctx, testSite.URL("/second.html"), WaitLoad); err != nil {
		t.Fatalf("Navigate: %v", err)
	}
	if err := p.GoBack(ctx, WaitLoad); err != nil {
		t.Fatalf("GoBack: %v", err)
	}
	if got, want := p.URL(), testSite.URL("/home.html"); got != want {
		t.Errorf("after GoBack URL() = %q, want %q", got, want)
	}
	if err := p.GoForward(ctx, WaitLoad); err != nil {
		t.Fatalf("GoForward: %v", err)
	}
	if err := p.Reload(ctx, false, WaitLoad); err != nil {
		t.Fatalf("Reload: %v", err)
	}
	if got, want := p.URL(), testSite.URL("/second.html"); got != want {
		t.Errorf("after reload URL() = %q, want %q", got, want)
	}
}
