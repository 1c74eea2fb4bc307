package jobs

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/internal/safefs"
	"github.com/cdpmcp/cdpmcp/recording"
)

// recorder writes a job's artifacts: its recording (the trace of its actions
// and the page's events, the HAR network log, the video when asked), and the
// final screenshot. Every secret the registry knows (the job's password from
// its submission on, what went into password fields) is redacted wherever it
// shows up, however it is encoded.
type recorder struct {
	*recording.Recorder
	dir   string
	video string
}

func (q *Queue) startRecording(ctx context.Context, j *Job, page *cdpclient.Page) (*recorder, error) {
	dir := q.artifactDir(j.Tenant, j.ID)
	// What an earlier attempt left (a run a restart cut short) makes way:
	// the recording's files are made anew.
	if err := os.RemoveAll(dir); err != nil {
		return nil, fmt.Errorf("a job's artifacts folder: %w", err)
	}
	rec, err := recording.Start(ctx, page, recording.Options{
		Dir: dir, Video: j.Task.Video, Creator: "cdpmcp", Version: q.cfg.Version,
		Redact: q.secretsOf(j.Tenant).Redact,
	}, map[string]any{"kind": "job", "job": j.ID, "type": j.Task.Type, "url": j.URL, "profile": j.Profile, "attempt": j.Attempt})
	if err != nil {
		return nil, err
	}
	return &recorder{Recorder: rec, dir: dir}, nil
}

// finish takes the final screenshot (when shoot and the tab can still draw)
// and ends the recording. It returns the artifacts' paths; the video follows
// from encodeVideo.
// A write that failed (a full disk) is returned; the file it was for is not
// among the artifacts.
func (r *recorder) finish(page *cdpclient.Page, shoot bool) (Artifacts, error) {
	var (
		a        Artifacts
		writeErr error
	)
	if shoot && page.Usable() == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		png, err := fastPNG(ctx, page)
		cancel()
		if err == nil {
			path := filepath.Join(r.dir, "screenshot.png")
			if writeErr = safefs.WriteFile(path, png); writeErr == nil {
				a.Screenshot = path
			}
		} else {
			r.Action("screenshot", map[string]any{"ok": false, "error": err.Error()})
		}
	}
	files := r.Stop()
	a.Trace, a.NetworkLog = files.Trace, files.HAR
	if writeErr == nil {
		writeErr = files.Err
	}
	return a, writeErr
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

// encodeVideo turns the recorded frames into the video, if one was asked for,
// and says why there is none.
func (r *recorder) encodeVideo() error {
	var err error
	r.video, _, err = r.EncodeVideo()
	return err
}

func (r *recorder) videoPath() string { return r.video }
