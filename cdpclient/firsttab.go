package cdpclient

import (
	"context"
	"fmt"
)

// A tab that is attached but still being set up (its domains enabled, its
// scripts installed) is not yet one of its context's pages. On a loaded
// machine a launched browser's first tab can take longer than Connect waits
// for it; a tool that asks for the current page meanwhile waits for that tab
// rather than open a second one.

// currentOrSetUp returns the current page, waiting for tabs of the context being
// set up until one is ready; nil when none is open or being set up.
func (bc *BrowserContext) currentOrSetUp(ctx context.Context) (*Page, error) {
	for {
		p, q := bc.currentOrSettingUp()
		if p != nil || q == nil {
			return p, nil
		}
		if bc.waitingForSetUp != nil {
			bc.waitingForSetUp()
		}
		select {
		case <-q.ready: // its set-up is bounded (setupTimeout)
			if q.initErr == nil {
				return q, nil // made current as it is added, unless another came first
			}
		case <-bc.b.Done():
			return nil, ErrBrowserClosed
		case <-ctx.Done():
			return nil, fmt.Errorf("a tab being set up did not become ready: %w", ctx.Err())
		}
	}
}

// currentOrSettingUp returns the current page or, with none, a tab of the
// context that is attached but not yet one of its pages, and not failed.
func (bc *BrowserContext) currentOrSettingUp() (current, settingUp *Page) {
	bc.mu.Lock()
	defer bc.mu.Unlock()
	if bc.current != nil {
		return bc.current, nil
	}
	b := bc.b
	b.mu.Lock() // after bc.mu, as remove takes them
	defer b.mu.Unlock()
	for _, p := range b.pages {
		if p.bc != bc || bc.pages[p.ID] == p {
			continue
		}
		select {
		case <-p.ready:
			if p.initErr != nil {
				continue // failed: it leaves b.pages
			}
		default:
		}
		return nil, p
	}
	return nil, nil
}
