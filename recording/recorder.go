// Package recording records a tab: a trace of what was done and what the page
// did (JSON lines), its network log (HAR 1.2) and, when asked, a video of its
// screencast. Jobs record every run with it; the record action lets a user
// start and stop one. What it writes is redacted by the caller's function, and
// carries no cookies, credential headers or bodies.
package recording

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/network"
	"github.com/cdpmcp/cdpmcp/internal/safefs"
)

// Options say where a recording goes and what it keeps.
type Options struct {
	// Dir receives trace.jsonl, network.har and video.webm: it is created
	// private (0700), or must be a private folder of this user already, and
	// hold none of them (files are created anew, never through a link).
	Dir string
	// Video also records the tab's screencast, secret fields painted over.
	Video bool
	// Redact is applied to every line and file written; nil keeps them as
	// they are.
	Redact func(string) string
	// Creator and Version name the program in the HAR log.
	Creator, Version string
}

// Files are the paths a finished recording wrote; empty when not written.
type Files struct {
	Trace, HAR, Video string
	// Requests and Lines count the HAR's entries and the trace's lines.
	Requests, Lines int
	// Frames is how many screencast frames the video holds.
	Frames int
	// Err is the first write that failed (a full disk): the file it was for
	// is removed and its path left empty, never handed out half-written.
	Err error
}

// Recorder records one tab until Stop.
type Recorder struct {
	opts  Options
	start time.Time

	mu      sync.Mutex
	trace   *os.File
	w       *bufio.Writer
	lines   int
	har     *network.HARRecorder // the first tab's
	more    []tabHAR             // other tabs' (AddTab)
	stopped bool
	video   *video
	origins []string
	err     error // the trace's first failed write
}

// tabHAR is the network log of a tab added to the recording.
type tabHAR struct {
	id  string
	har *network.HARRecorder
}

// traceEvents are the CDP events the trace keeps besides the network's.
var traceEvents = []string{"Runtime.consoleAPICalled", "Runtime.exceptionThrown", "Page.javascriptDialogOpening"}

// Start begins recording page; first is the trace's first line (what is
// recorded, e.g. the job), written with kind "start" unless it names one.
func Start(ctx context.Context, page *cdpclient.Page, opts Options, first map[string]any) (*Recorder, error) {
	if err := safefs.Dir(opts.Dir, "the recording folder"); err != nil {
		return nil, err
	}
	f, err := safefs.Create(filepath.Join(opts.Dir, "trace.jsonl"))
	if err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	if opts.Redact == nil {
		opts.Redact = func(s string) string { return s }
	}
	r := &Recorder{opts: opts, start: time.Now(), trace: f, w: bufio.NewWriter(f)}
	if first == nil {
		first = map[string]any{}
	}
	if _, ok := first["kind"]; !ok {
		first["kind"] = "start"
	}
	r.Line(first)
	if r.har, err = network.RecordHAR(page, traceEvents, func(ev cdpclient.Event) { r.event("", ev) }); err != nil {
		f.Close()
		return nil, err
	}
	if opts.Video {
		r.video = startVideo(ctx, page, filepath.Join(opts.Dir, "frames"))
	}
	return r, nil
}

// AddTab records another tab's requests and events too (its trace lines
// carry its id as "page"), from now on; the video stays the first tab's.
func (r *Recorder) AddTab(page *cdpclient.Page, id string) error {
	har, err := network.RecordHAR(page, traceEvents, func(ev cdpclient.Event) { r.event(id, ev) })
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		har.Stop("", "")
		return nil
	}
	r.more = append(r.more, tabHAR{id: id, har: har})
	return nil
}

// Line writes one trace line, with the milliseconds since the start as "t".
func (r *Recorder) Line(v map[string]any) {
	v["t"] = time.Since(r.start).Milliseconds()
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.w == nil {
		return
	}
	if _, err := r.w.WriteString(r.opts.Redact(string(b)) + "\n"); err != nil && r.err == nil {
		r.err = err // an *fs.PathError naming the file
	}
	r.lines++
}

// Action records one step taken on the tab: kind "action", act its name.
func (r *Recorder) Action(act string, fields map[string]any) {
	if fields == nil {
		fields = map[string]any{}
	}
	fields["kind"], fields["act"] = "action", act
	r.Line(fields)
}

// DocumentStatus is the HTTP status of the tab's latest document, or 0.
func (r *Recorder) DocumentStatus() int { return r.har.DocumentStatus() }

// Origins are the origins the tab requested, known after Stop.
func (r *Recorder) Origins() []string { return r.origins }

// Stop ends the recording: it stops the screencast, writes the HAR log and
// closes the trace. The video, if any, is encoded by EncodeVideo, which can
// take seconds and need not hold up whoever waits for the tab.
func (r *Recorder) Stop() Files {
	var out Files
	if r.video != nil {
		r.video.stop()
	}
	r.mu.Lock()
	r.stopped = true
	more := r.more
	r.mu.Unlock()
	har := r.har.Stop(r.opts.Creator, r.opts.Version)
	for _, t := range more {
		mergeHAR(har, t.id, t.har.Stop("", ""))
	}
	seen := map[string]bool{}
	for _, e := range har.Log.Entries {
		if u, err := url.Parse(e.Request.URL); err == nil && (u.Scheme == "http" || u.Scheme == "https") && !seen[u.Scheme+"://"+u.Host] {
			seen[u.Scheme+"://"+u.Host] = true
			r.origins = append(r.origins, u.Scheme+"://"+u.Host)
		}
	}
	out.Requests = len(har.Log.Entries)
	if b, err := json.MarshalIndent(har, "", " "); err == nil {
		path := filepath.Join(r.opts.Dir, "network.har")
		if err := safefs.WriteFile(path, []byte(r.opts.Redact(string(b)))); err != nil {
			out.Err = err
		} else {
			out.HAR = path
		}
	}
	r.mu.Lock()
	if r.w != nil {
		if err := r.w.Flush(); err != nil && r.err == nil {
			r.err = err
		}
		if err := r.trace.Close(); err != nil && r.err == nil {
			r.err = err
		}
		r.w = nil
	}
	out.Lines = r.lines
	traceErr := r.err
	r.mu.Unlock()
	if traceErr != nil {
		// Lines are missing from it: it is not the trace of what happened.
		_ = os.Remove(r.trace.Name())
		out.Err = traceErr
		slog.Warn("a recording's trace could not be written; removed it", "err", traceErr)
	} else {
		out.Trace = r.trace.Name()
	}
	return out
}

// EncodeVideo turns the recorded frames into video.webm, after Stop. It
// returns the video's path and frame count, or an error saying why there is
// none; no video was asked for is ("", 0, nil).
func (r *Recorder) EncodeVideo() (string, int, error) {
	if r.video == nil {
		return "", 0, nil
	}
	n, err := r.video.encode(filepath.Join(r.opts.Dir, "video.webm"))
	if err != nil {
		slog.Warn("encode a recording's video", "dir", r.opts.Dir, "err", err)
		return "", n, err
	}
	return r.video.out, n, nil
}
