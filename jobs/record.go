package jobs

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/recording"
)

// recorder writes a job's artifacts: its recording (the trace of its actions
// and the page's events, the HAR network log, the video when asked), and the
// final screenshot. The job's typed secret and the browsers' secrets are
// redacted by value wherever they show up.
type recorder struct {
	*recording.Recorder
	dir   string
	video string
}

func (q *Queue) startRecording(ctx context.Context, j *Job, page *cdpclient.Page, secret string) (*recorder, error) {
	dir := q.cfg.Dir.ArtifactDir(j.Tenant, j.ID)
	reg := q.cfg.Browser.Secrets
	rec, err := recording.Start(ctx, page, recording.Options{
		Dir: dir, Video: j.Task.Video, Creator: "cdpmcp", Version: q.cfg.Version,
		Redact: func(s string) string { return scrub(s, secret, reg) },
	}, map[string]any{"kind": "job", "job": j.ID, "type": j.Task.Type, "url": j.URL, "profile": j.Profile, "attempt": j.Attempt})
	if err != nil {
		return nil, err
	}
	return &recorder{Recorder: rec, dir: dir}, nil
}

// finish takes the final screenshot (when shoot and the tab can still draw)
// and ends the recording. It returns the artifacts' paths; the video follows
// from encodeVideo.
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
			r.Action("screenshot", map[string]any{"ok": false, "error": err.Error()})
		}
	}
	files := r.Stop()
	a.Trace, a.NetworkLog = files.Trace, files.HAR
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
	r.video, _, _ = r.EncodeVideo()
}

func (r *recorder) videoPath() string { return r.video }

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
