package jobs

import (
	"bufio"
	"context"
	"encoding/json"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
)

// recorder writes a job's artifacts: the trace (JSON lines of its actions and
// the page's CDP events, summarised), the HAR network log, the final
// screenshot and, when asked, the video. Typed secrets are redacted by value
// wherever they show up; cookies and credential headers are never written.
type recorder struct {
	dir    string
	secret string
	reg    *secrets.Registry // the browsers' secrets, also redacted
	start  time.Time
	ver    string

	mu    sync.Mutex
	trace *os.File
	w     *bufio.Writer
	har   *cdpclient.HARRecorder
	video *video
	// origins are the origins the tab requested, known after finish.
	origins []string
}

// traceEvents are the CDP events the trace keeps besides the network's.
var traceEvents = []string{"Runtime.consoleAPICalled", "Runtime.exceptionThrown", "Page.javascriptDialogOpening"}

func (q *Queue) startRecording(ctx context.Context, j *Job, page *cdpclient.Page, secret string) (*recorder, error) {
	dir := q.cfg.Dir.ArtifactDir(j.ID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(dir, "trace.jsonl"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	rec := &recorder{dir: dir, secret: secret, reg: q.cfg.Browser.Secrets, start: time.Now(), ver: q.cfg.Version, trace: f, w: bufio.NewWriter(f)}
	rec.line(map[string]any{"kind": "job", "job": j.ID, "type": j.Task.Type, "url": j.URL, "profile": j.Profile, "attempt": j.Attempt})
	if rec.har, err = page.RecordHAR(traceEvents, rec.event); err != nil {
		f.Close()
		return nil, err
	}
	if j.Task.Video {
		rec.video = startVideo(ctx, page, filepath.Join(dir, "frames"))
	}
	return rec, nil
}

// line writes one trace line, redacted.
func (r *recorder) line(v map[string]any) {
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
	r.w.WriteString(scrub(string(b), r.secret, r.reg))
	r.w.WriteByte('\n')
}

// action records one step of the job.
func (r *recorder) action(act string, fields map[string]any) {
	if fields == nil {
		fields = map[string]any{}
	}
	fields["kind"], fields["act"] = "action", act
	r.line(fields)
}

// event summarises a CDP event for the trace: no headers, no bodies, no
// cookies.
func (r *recorder) event(ev cdpclient.Event) {
	var e struct {
		Type    string `json:"type"`
		Request struct {
			URL    string `json:"url"`
			Method string `json:"method"`
		} `json:"request"`
		Response struct {
			URL      string `json:"url"`
			Status   int    `json:"status"`
			MimeType string `json:"mimeType"`
		} `json:"response"`
		ErrorText string `json:"errorText"`
		Frame     struct {
			ParentID string `json:"parentId"`
			URL      string `json:"url"`
		} `json:"frame"`
		Args []struct {
			Value       any    `json:"value"`
			Description string `json:"description"`
		} `json:"args"`
		ExceptionDetails struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
		Message string `json:"message"`
	}
	if json.Unmarshal(ev.Params, &e) != nil {
		return
	}
	out := map[string]any{"kind": "cdp", "method": ev.Method}
	switch ev.Method {
	case "Network.requestWillBeSent":
		out["url"], out["httpMethod"], out["type"] = e.Request.URL, e.Request.Method, e.Type
	case "Network.responseReceived":
		out["url"], out["status"], out["mime"] = e.Response.URL, e.Response.Status, e.Response.MimeType
	case "Network.loadingFailed":
		out["error"] = e.ErrorText
	case "Network.dataReceived", "Network.loadingFinished":
		return // in the HAR; too many for the trace
	case "Page.frameNavigated":
		if e.Frame.ParentID != "" {
			return
		}
		out["url"] = e.Frame.URL
	case "Runtime.consoleAPICalled":
		var parts []string
		for _, a := range e.Args {
			if s, ok := a.Value.(string); ok {
				parts = append(parts, s)
			} else if a.Value != nil {
				b, _ := json.Marshal(a.Value)
				parts = append(parts, string(b))
			} else {
				parts = append(parts, a.Description)
			}
		}
		out["level"], out["text"] = e.Type, cut(strings.Join(parts, " "), 500)
	case "Runtime.exceptionThrown":
		out["text"] = cut(e.ExceptionDetails.Text+" "+e.ExceptionDetails.Exception.Description, 500)
	case "Page.javascriptDialogOpening":
		out["dialog"], out["message"] = e.Type, e.Message
	}
	r.line(out)
}

// finish takes the final screenshot (when shoot and the tab can still draw),
// writes the HAR log and closes the trace. It returns the artifacts' paths.
func (r *recorder) finish(page *cdpclient.Page, shoot bool) Artifacts {
	var a Artifacts
	if shoot && page.Usable() == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		png, err := fastPNG(ctx, page)
		cancel()
		if err == nil {
			path := filepath.Join(r.dir, "screenshot.png")
			if os.WriteFile(path, png, 0o600) == nil {
				a.Screenshot = path
			}
		} else {
			r.action("screenshot", map[string]any{"ok": false, "error": err.Error()})
		}
	}
	if r.video != nil {
		r.video.stop()
	}
	har := r.har.Stop("cdpmcp", r.ver)
	seen := map[string]bool{}
	for _, e := range har.Log.Entries {
		if u, err := url.Parse(e.Request.URL); err == nil && (u.Scheme == "http" || u.Scheme == "https") && !seen[u.Scheme+"://"+u.Host] {
			seen[u.Scheme+"://"+u.Host] = true
			r.origins = append(r.origins, u.Scheme+"://"+u.Host)
		}
	}
	if b, err := json.MarshalIndent(har, "", " "); err == nil {
		path := filepath.Join(r.dir, "network.har")
		if os.WriteFile(path, []byte(scrub(string(b), r.secret, r.reg)), 0o600) == nil {
			a.NetworkLog = path
		}
	}
	r.mu.Lock()
	if err := r.w.Flush(); err != nil {
		slog.Warn("write a job's trace", "err", err)
	}
	r.trace.Close()
	r.w = nil
	r.mu.Unlock()
	a.Trace = r.trace.Name()
	return a
}

// fastPNG captures the viewport as a PNG, letting the browser favour speed
// over size (about a third of the CPU of a default capture).
func fastPNG(ctx context.Context, page *cdpclient.Page) ([]byte, error) {
	raw, err := page.Raw(ctx, "Page.captureScreenshot", json.RawMessage(`{"format":"png","optimizeForSpeed":true}`))
	if err != nil {
		return nil, err
	}
	var shot struct {
		Data []byte `json:"data"` // base64 in JSON
	}
	if err := json.Unmarshal(raw, &shot); err != nil {
		return nil, err
	}
	return shot.Data, nil
}

// encodeVideo turns the recorded frames into the video, if one was asked for.
func (r *recorder) encodeVideo() {
	if r.video != nil {
		if err := r.video.encode(filepath.Join(r.dir, "video.webm")); err != nil {
			slog.Warn("encode a job's video", "dir", r.dir, "err", err)
		}
	}
}

func (r *recorder) videoPath() string {
	if r.video == nil || r.video.out == "" {
		return ""
	}
	return r.video.out
}

// redact replaces a secret wherever it appears, also URL- and JSON-escaped.
// Secrets shorter than 3 characters are not searched for: they would match
// everywhere and protect nothing.
func redact(s, secret string) string {
	if len(secret) < 3 {
		return s
	}
	forms := []string{secret, url.QueryEscape(secret), url.PathEscape(secret)}
	if b, err := json.Marshal(secret); err == nil {
		forms = append(forms, strings.Trim(string(b), `"`))
	}
	for _, f := range forms {
		s = strings.ReplaceAll(s, f, "[redacted]")
	}
	return s
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
