package audit

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/emulation"
	"github.com/mafredri/cdp/protocol/io"
	"github.com/mafredri/cdp/protocol/network"
	"github.com/mafredri/cdp/protocol/tracing"
)

// PerformanceOptions say what Performance measures.
type PerformanceOptions struct {
	// URL, if set, is loaded (cold: the cache is bypassed for this load, not
	// cleared) and recorded in a trace; else the current page is measured
	// from its own performance timeline, with no trace.
	URL string
	// Throttle is "" or "none", or "mobile": Lighthouse's mobile defaults as
	// DevTools applies them (4x CPU slowdown, 562.5 ms latency, 1.47 Mbps
	// down, 675 kbps up), on this tab for this load only.
	Throttle string
	// Quiet is how long the page must stay without network activity after
	// load before the trace ends (default 1 s, as Lighthouse).
	Quiet time.Duration
}

// Throttle presets: Lighthouse's mobileSlow4G as DevTools throttling applies it.
const (
	mobileLatencyMs   = 150 * 3.75
	mobileDownBytesPS = 1.6 * 1024 * 0.9 * 1024 / 8
	mobileUpBytesPS   = 750 * 0.9 * 1024 / 8
	mobileCPUSlowdown = 4
)

// traceCategories are those of DevTools' Performance panel (without the CPU
// profiler), so the trace opens there with its tracks, screenshots included.
var traceCategories = []string{
	"-*", "devtools.timeline", "disabled-by-default-devtools.timeline", "disabled-by-default-devtools.timeline.frame",
	"disabled-by-default-devtools.timeline.stack", "disabled-by-default-devtools.screenshot", "loading", "latencyInfo",
	"blink.user_timing", "blink.console", "v8.execute", "disabled-by-default-lighthouse", "__metadata",
}

// tracing is browser-wide: one trace at a time per browser.
var traceSlots sync.Map // *cdpclient.Browser → chan struct{} (capacity 1)

// traceSlot waits (within ctx) for the browser's one tracing slot and returns
// the function that frees it.
func traceSlot(ctx context.Context, b *cdpclient.Browser) (func(), error) {
	v, _ := traceSlots.LoadOrStore(b, make(chan struct{}, 1))
	slot := v.(chan struct{})
	select {
	case slot <- struct{}{}:
		return func() { <-slot }, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("wait for another trace of this browser to end: %w", ctx.Err())
	}
}

// Performance measures a load of opts.URL in the page under a trace, or the
// current page from its performance timeline.
func Performance(ctx context.Context, p *cdpclient.Page, opts PerformanceOptions) (*PerformanceReport, error) {
	switch opts.Throttle {
	case "", "none", "mobile":
	default:
		return nil, &cdpclient.ArgError{Msg: fmt.Sprintf("throttle %q is not a preset", opts.Throttle), Hint: "use none or mobile"}
	}
	if opts.URL == "" {
		if opts.Throttle == "mobile" {
			return nil, &cdpclient.ArgError{Msg: "throttling applies to a load: give url", Hint: "pass url to load a page under throttling"}
		}
		return timelinePerformance(ctx, p)
	}
	if _, err := cdpclient.CheckURL(opts.URL); err != nil {
		return nil, err
	}
	if opts.Quiet <= 0 {
		opts.Quiet = time.Second
	}
	var rec *loadRecording
	d := p.Door()
	fb, err := d.Run(ctx, cdpclient.ModeNavigate, func(ctx context.Context, c *cdp.Client) error {
		var err error
		rec, err = recordLoad(ctx, p, c, opts)
		return err
	})
	if err != nil {
		return nil, err
	}
	if !fb.OK {
		return nil, &cdpclient.Error{Code: cdpclient.Code(fb.Code), Msg: fb.Msg, Hint: fb.Hint}
	}
	if rec == nil || len(rec.trace) == 0 {
		return nil, fmt.Errorf("performance trace: nothing recorded")
	}
	rep, err := analyseTrace(rec.trace, rec.frame, rec.responses)
	if err != nil {
		return nil, err
	}
	rep.URL, rep.Throttle, rep.Source, rep.Trace = p.URL(), throttleName(opts.Throttle), "trace", rec.trace
	if fb.Delta != nil && fb.Delta.Status >= 400 {
		rep.Status = fb.Delta.Status
	}
	nameLCP(ctx, d, rep)
	rep.findings()
	return rep, nil
}

func throttleName(t string) string {
	if t == "" {
		return "none"
	}
	return t
}

// loadRecording is what a traced load leaves: the trace (JSON, as DevTools
// saves it), the main frame and the responses' headers by request id.
type loadRecording struct {
	trace     []byte
	frame     string
	responses map[string]responseInfo
}

// responseInfo is what the network domain says of a response that the trace
// does not: its caching and compression headers.
type responseInfo struct {
	CacheControl, Expires, ContentEncoding, MIME string
}

// recordLoad navigates under a trace with the cache bypassed and the
// throttling asked for, waits for the page to go quiet, then ends the trace
// and reads it. Emulation and the cache are restored whatever happens.
// c is the page session's client.
func recordLoad(ctx context.Context, p *cdpclient.Page, c *cdp.Client, opts PerformanceOptions) (*loadRecording, error) {
	free, err := traceSlot(ctx, p.Context().Browser())
	if err != nil {
		return nil, err
	}
	defer free()
	d := p.Door()
	rec := &loadRecording{frame: d.Frames().Main(), responses: map[string]responseInfo{}}
	responses, err := c.Network.ResponseReceived(ctx)
	if err != nil {
		return nil, err
	}
	defer responses.Close()
	complete, err := c.Tracing.TracingComplete(ctx)
	if err != nil {
		return nil, err
	}
	defer complete.Close()
	// Leave the current document first, as Lighthouse does: its unload and
	// the memory it frees do not fall into the measured load.
	if err := d.Frames().Load(ctx, "about:blank", cdpclient.WaitLoad); err != nil {
		return nil, err
	}
	restore := emulateForAudit(ctx, c, opts.Throttle)
	defer restore()
	cfg := &tracing.TraceConfig{IncludedCategories: traceCategories}
	if err := c.Tracing.Start(ctx, tracing.NewStartArgs().SetTraceConfig(*cfg).SetTransferMode("ReturnAsStream")); err != nil {
		return nil, fmt.Errorf("start trace: %w", err)
	}
	traced := true
	defer func() {
		if traced { // a failed load: stop the trace, drop it
			ectx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cdpclient.CallTimeout)
			defer cancel()
			_ = c.Tracing.End(ectx)
		}
	}()
	since := d.Logs().Mark()
	if err := d.Frames().Load(ctx, opts.URL, cdpclient.WaitLoad); err != nil {
		return nil, err
	}
	waitNetworkQuiet(ctx, d, since, opts.Quiet)
	waitPainted(ctx, d)
	rec.frame = d.Frames().Main()
	traced = false
	if err := c.Tracing.End(ctx); err != nil {
		return nil, fmt.Errorf("end trace: %w", err)
	}
	done, err := complete.Recv()
	if err != nil {
		return nil, fmt.Errorf("trace did not complete: %w", err)
	}
	if rec.trace, err = readStream(ctx, c, done.Stream); err != nil {
		return nil, err
	}
	for {
		select {
		case <-responses.Ready():
		default:
			return rec, nil
		}
		ev, err := responses.Recv()
		if err != nil {
			return rec, nil
		}
		h := headerMap(ev.Response.Headers)
		rec.responses[string(ev.RequestID)] = responseInfo{CacheControl: h["cache-control"], Expires: h["expires"],
			ContentEncoding: h["content-encoding"], MIME: ev.Response.MimeType}
	}
}

// emulateForAudit bypasses the cache and applies a throttling preset; the
// function it returns undoes both.
func emulateForAudit(ctx context.Context, c *cdp.Client, preset string) func() {
	_ = c.Network.SetCacheDisabled(ctx, network.NewSetCacheDisabledArgs(true))
	if preset == "mobile" {
		_ = c.Network.EmulateNetworkConditions(ctx, network.NewEmulateNetworkConditionsArgs(false, mobileLatencyMs, mobileDownBytesPS, mobileUpBytesPS))
		_ = c.Emulation.SetCPUThrottlingRate(ctx, emulation.NewSetCPUThrottlingRateArgs(mobileCPUSlowdown))
	}
	return func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cdpclient.CallTimeout)
		defer cancel()
		if preset == "mobile" {
			_ = c.Network.EmulateNetworkConditions(ctx, network.NewEmulateNetworkConditionsArgs(false, 0, -1, -1))
			_ = c.Emulation.SetCPUThrottlingRate(ctx, emulation.NewSetCPUThrottlingRateArgs(1))
		}
		_ = c.Network.SetCacheDisabled(ctx, network.NewSetCacheDisabledArgs(false))
	}
}

// readStream reads an IO stream to its end and closes it.
func readStream(ctx context.Context, c *cdp.Client, h *io.StreamHandle) ([]byte, error) {
	if h == nil {
		return nil, fmt.Errorf("trace: no stream")
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cdpclient.CallTimeout)
		defer cancel()
		_ = c.IO.Close(cctx, io.NewCloseArgs(*h))
	}()
	var out []byte
	for {
		r, err := c.IO.Read(ctx, io.NewReadArgs(*h).SetSize(1<<20))
		if err != nil {
			return nil, fmt.Errorf("read trace: %w", err)
		}
		if r.Base64Encoded != nil && *r.Base64Encoded {
			b, err := base64.StdEncoding.DecodeString(r.Data)
			if err != nil {
				return nil, fmt.Errorf("decode trace: %w", err)
			}
			out = append(out, b...)
		} else {
			out = append(out, r.Data...)
		}
		if r.EOF {
			return out, nil
		}
	}
}

// headerMap lowercases a response's header names.
func headerMap(h network.Headers) map[string]string {
	var m map[string]string
	_ = json.Unmarshal(h, &m)
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[strings.ToLower(k)] = v
	}
	return out
}
