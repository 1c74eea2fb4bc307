package cdpclient

import (
	"context"
)

// Shutdown asks a browser this process launched to exit by itself
// (Browser.close) and waits, within ctx, until it has, so it writes its
// profile (cookies, storage) to disk; then it closes as Close does. Close
// alone ends the process group at once, which can lose the last cookies of a
// persistent profile. An attached browser is only disconnected.
func (b *Browser) Shutdown(ctx context.Context) {
	if b.proc != nil && b.Alive() {
		if _, err := b.Raw(ctx, "Browser.close", nil); err == nil {
			select {
			case <-b.proc.Exited():
			case <-ctx.Done():
			}
		}
	}
	b.Close()
}
