package recording

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/live"
	"github.com/cdpmcp/cdpmcp/internal/safefs"
)

// video keeps a tab's screencast frames on disk and turns them into a WebM
// with ffmpeg when the recording ends.
type video struct {
	dir   string
	out   string
	stopF func()

	mu     sync.Mutex
	frames []videoFrame
	err    error
}

type videoFrame struct {
	path string
	at   time.Time
}

func startVideo(ctx context.Context, page *cdpclient.Page, dir string) *video {
	v := &video{dir: dir}
	if err := safefs.NewDir(dir, "the video's frames folder"); err != nil {
		v.err = err
		return v
	}
	// Secret fields are painted over in every frame kept: a video shows none
	// of what goes into them, whoever types it (the job, a person helping).
	keep := func(f live.Frame) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		masked, err := live.MaskSecrets(ctx, page, f)
		if err != nil {
			return // the tab cannot be checked: the frame is not kept
		}
		v.frame(masked)
	}
	stop, err := live.Screencast(ctx, page, live.ScreencastOptions{Format: "jpeg", Quality: 70, MaxWidth: 1280, MaxHeight: 800}, keep)
	if err != nil {
		v.err = err
		return v
	}
	v.stopF = stop
	return v
}

func (v *video) frame(f live.Frame) {
	v.mu.Lock()
	defer v.mu.Unlock()
	path := filepath.Join(v.dir, fmt.Sprintf("%06d.jpg", len(v.frames)))
	if err := safefs.WriteFile(path, f.Data); err != nil {
		if v.err == nil {
			v.err = err
		}
		return
	}
	v.frames = append(v.frames, videoFrame{path: path, at: f.Time})
}

func (v *video) stop() {
	if v.stopF != nil {
		v.stopF()
		v.stopF = nil
	}
}

// encode writes the frames as a WebM (VP8) at out, each frame shown until the
// next one came, and removes the frames. It returns how many frames there were.
func (v *video) encode(out string) (int, error) {
	v.stop()
	defer os.RemoveAll(v.dir)
	v.mu.Lock()
	frames, err := v.frames, v.err
	v.mu.Unlock()
	if err != nil {
		return 0, err
	}
	if len(frames) == 0 {
		return 0, errors.New("the tab drew no frame")
	}
	ffmpeg, err := exec.LookPath("ffmpeg")
	if err != nil {
		return len(frames), errors.New("ffmpeg is not installed (make deps installs it; apt-get install ffmpeg)")
	}
	var list strings.Builder
	for i, f := range frames {
		d := 0.5
		if i+1 < len(frames) {
			d = max(frames[i+1].at.Sub(f.at).Seconds(), 0.01)
		}
		fmt.Fprintf(&list, "file '%s'\nduration %.3f\n", f.path, d)
	}
	fmt.Fprintf(&list, "file '%s'\n", frames[len(frames)-1].path) // the concat demuxer drops the last duration otherwise
	listPath := filepath.Join(v.dir, "frames.txt")
	if err := safefs.WriteFile(listPath, []byte(list.String())); err != nil {
		return len(frames), err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, ffmpeg, "-y", "-loglevel", "error", "-f", "concat", "-safe", "0", "-i", listPath,
		"-vf", "scale=trunc(iw/2)*2:trunc(ih/2)*2,format=yuv420p", "-fps_mode", "vfr",
		"-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "1M", "-an", out)
	if b, err := runEncoder(cmd); err != nil {
		_ = os.Remove(out) // what ffmpeg wrote before it failed is no video
		err = fmt.Errorf("ffmpeg: %v: %s", err, strings.TrimSpace(string(b)))
		if strings.Contains(string(b), "No space left on device") {
			err = fmt.Errorf("write %s: %w (%v)", out, syscall.ENOSPC, err)
		}
		return len(frames), err
	}
	_ = os.Chmod(out, 0o600) // ffmpeg creates it by the umask; the frames were private
	slog.Debug("video written", "path", out, "frames", len(frames))
	v.out = out
	return len(frames), nil
}
