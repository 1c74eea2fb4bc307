package audit

import (
	"context"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
)

// waitNetworkQuiet waits until no request started since mark has been open for
// quiet (a quiet period), within 10 s or ctx (a deadline).
func waitNetworkQuiet(ctx context.Context, d cdpclient.Door, mark int, quiet time.Duration) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	still := time.Now()
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	for time.Since(still) < quiet {
		if d.Logs().Pending(mark) > 0 {
			still = time.Now()
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// waitPainted waits (within 3 s) for two frames of the page to be rendered:
// the trace ends once the page has shown what it loaded. A renderer starved
// of CPU (a loaded machine) paints the load's last image, often the largest
// paint, well after the network went quiet.
func waitPainted(ctx context.Context, d cdpclient.Door) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	_ = d.Frames().In(ctx, cdpclient.Frame{}, func(w *cdpclient.World) error {
		_, err := w.Eval(ctx, "new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0))))", true)
		return err
	})
}
