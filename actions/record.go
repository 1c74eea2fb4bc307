package actions

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/learned"
	"github.com/cdpmcp/cdpmcp/recording"
)

type recordArgs struct {
	Op    string `json:"op" required:"true" enum:"start,stop,status" desc:"stop writes the files and answers their paths"`
	Video bool   `json:"video" desc:"start: also a WebM of the tab's screen (password fields painted over)"`
	Page  string `json:"page"`
}

// Record starts and stops a recording of the session's tabs: the trace (every
// tool call with its answer, and the tabs' requests, console, errors, dialogs
// and navigations, as JSON lines), the HAR network log and, with video, a WebM
// of the tab it started in.
var Record = define("record",
	"Record this session until stop: a trace of every tool call and what its tabs did (JSON lines), their network log (HAR), a script.json to replay without a model, with video a WebM of the tab's screen.",
	ClassRead, Hints{ReadOnly: true},
	func(ctx context.Context, env *Env, a recordArgs) (*Result, error) {
		if err := require("op", a.Op, `{"op":"start"}`); err != nil {
			return nil, err
		}
		bc, err := env.Context(ctx)
		if err != nil {
			return nil, err
		}
		switch a.Op {
		case "start":
			return startRecording(ctx, env, bc, a)
		case "stop":
			r := recordings.take(bc)
			if r == nil {
				return nil, argErr(`start one with {"op":"start"}; one started in another context (contexts) is stopped there`, "no recording is running in this session's current context")
			}
			text, files := r.stop()
			return &Result{Text: text, Files: files}, nil
		case "status":
			r := recordings.of(bc)
			if r == nil {
				return &Result{Text: "no recording is running"}, nil
			}
			return &Result{Text: fmt.Sprintf("recording %s since %s (%s) into %s", r.page.ID,
				r.started.Format(time.TimeOnly), time.Since(r.started).Round(time.Second), r.dir)}, nil
		default:
			return nil, argErr(`op is start, stop or status, e.g. {"op":"start"}`, "unknown op %q", a.Op)
		}
	}).inGroup("devtools")

// activeRecording is a session's running recording.
type activeRecording struct {
	rec     *recording.Recorder
	page    *cdpclient.Page // the tab it started in, the video's
	dir     string
	video   bool
	started time.Time
	tabs    atomic.Int32 // recorded, page included
	unwatch func()       // ends follow's watch
	script  *learned.Recorder
}

// follow adds the context's other tabs to the recording: those open now and,
// until stop, each as it opens (a new tab before it loads anything).
func (r *activeRecording) follow(bc *cdpclient.BrowserContext) {
	var mu sync.Mutex
	seen := map[*cdpclient.Page]bool{r.page: true}
	add := func(p *cdpclient.Page) {
		mu.Lock()
		defer mu.Unlock()
		if seen[p] {
			return
		}
		seen[p] = true
		if err := r.rec.AddTab(p, p.ID); err == nil {
			r.rec.Line(map[string]any{"kind": "tab", "page": p.ID, "url": p.URL()})
			r.tabs.Add(1)
		}
	}
	r.unwatch = bc.OnPage(add)
	for _, p := range bc.Pages() {
		add(p)
	}
}

// recordingLog keeps each browser context's running recording (one per MCP
// session, or per named context). EndRecording removes a context's when it
// closes.
type recordingLog struct {
	mu   sync.Mutex
	byBC map[*cdpclient.BrowserContext]*activeRecording
}

var recordings = &recordingLog{byBC: map[*cdpclient.BrowserContext]*activeRecording{}}

func (l *recordingLog) of(bc *cdpclient.BrowserContext) *activeRecording {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.byBC[bc]
}

// take removes bc's recording and returns it, or nil.
func (l *recordingLog) take(bc *cdpclient.BrowserContext) *activeRecording {
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.byBC[bc]
	delete(l.byBC, bc)
	return r
}

// any reports whether some session is recording: tool calls are traced only
// then.
func (l *recordingLog) any() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.byBC) > 0
}

func startRecording(ctx context.Context, env *Env, bc *cdpclient.BrowserContext, a recordArgs) (*Result, error) {
	if r := recordings.of(bc); r != nil {
		return nil, argErr(`stop it first: {"op":"stop"}`, "a recording of %s is already running (into %s)", r.page.ID, r.dir)
	}
	p, err := env.Page(ctx, a.Page)
	if err != nil {
		return nil, err
	}
	if err := env.artifactsReady(); err != nil {
		return nil, err
	}
	dir := env.newArtifact("recording")
	redact := func(s string) string { return s }
	if env.Secrets != nil {
		redact = env.Secrets.Redact
	}
	rec, err := recording.Start(ctx, p, recording.Options{Dir: dir, Video: a.Video, Redact: redact, Creator: "cdpmcp"},
		map[string]any{"page": p.ID, "url": p.URL(), "video": a.Video})
	if err != nil {
		return nil, err
	}
	r := &activeRecording{rec: rec, page: p, dir: dir, video: a.Video, started: time.Now(), script: learned.NewRecorder("record", "")}
	if env.Secrets != nil {
		r.script.Redact = env.Secrets.Redact
	}
	r.tabs.Store(1)
	r.follow(bc)
	recordings.mu.Lock()
	if recordings.byBC[bc] != nil { // a concurrent start won
		recordings.mu.Unlock()
		r.stop()
		return nil, argErr(`stop it first: {"op":"stop"}`, "a recording is already running")
	}
	recordings.byBC[bc] = r
	recordings.mu.Unlock()
	what := "trace and network log"
	if a.Video {
		what += ", video of " + p.ID
	}
	return &Result{Text: fmt.Sprintf("recording %s and the session's other tabs (%s) into %s; {\"op\":\"stop\"} ends it and writes the files", p.ID, what, dir)}, nil
}

// stop ends the recording, writes its files and says what they hold, and
// returns their paths.
func (r *activeRecording) stop() (string, []string) {
	r.unwatch()
	files := r.rec.Stop()
	var paths []string
	for _, p := range []string{files.Trace, files.HAR} {
		if p != "" {
			paths = append(paths, p)
		}
	}
	var b strings.Builder
	what := r.page.ID
	if n := r.tabs.Load(); n > 1 {
		what = fmt.Sprintf("%s and %d more tabs", r.page.ID, n-1)
	}
	written := func(path string, n int, unit string) string {
		if path == "" {
			return fmt.Sprintf("not written (%v)", files.Err)
		}
		return fmt.Sprintf("%s (%d %s)", path, n, unit)
	}
	fmt.Fprintf(&b, "recorded %s for %s\ntrace: %s\nnetwork: %s", what,
		time.Since(r.started).Round(100*time.Millisecond), written(files.Trace, files.Lines, "lines"), written(files.HAR, files.Requests, "requests"))
	switch path, steps, err := r.script.Write(r.dir); {
	case err != nil:
		fmt.Fprintf(&b, "\nscript: not written (%v)", err)
	case path == "":
		b.WriteString("\nscript: none (no step a script repeats was taken)")
	default:
		fmt.Fprintf(&b, "\nscript: %s (%d steps; replay it with a script job or cdpmcp script run)", path, steps)
		paths = append(paths, path)
	}
	if r.video {
		switch path, frames, err := r.rec.EncodeVideo(); {
		case err != nil:
			fmt.Fprintf(&b, "\nvideo: none (%v)", err)
		default:
			fmt.Fprintf(&b, "\nvideo: %s (%d frames)", path, frames)
			paths = append(paths, path)
		}
	}
	return b.String(), paths
}

// EndRecording stops bc's recording, if one runs, writing its files: the
// session that started it is ending.
func EndRecording(bc *cdpclient.BrowserContext) {
	if r := recordings.take(bc); r != nil {
		r.stop()
	}
}
