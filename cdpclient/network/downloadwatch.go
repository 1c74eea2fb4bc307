package network

import (
	"context"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/internal/poll"
)

const (
	// downloadSettle bounds how long an action's answer waits for a download
	// it started to finish; a larger file is reported in progress.
	downloadSettle = 5 * time.Second
	// downloadBeginWait bounds the wait, after a navigation ended in
	// net::ERR_ABORTED, for the download it may have become (its first event can
	// come seconds later on a loaded machine; a real abort is rare).
	downloadBeginWait = 3 * time.Second
)

// downloadWatch is an action's watch of the downloads it starts
// (cdpclient.Observer): the browser's count of downloads before the action.
type downloadWatch struct {
	p    *cdpclient.Page
	log  *downloadLog
	mark int
}

func watchAction(p *cdpclient.Page) cdpclient.Observer {
	l := logOf(p.Context().Browser())
	return &downloadWatch{p: p, log: l, mark: l.mark()}
}

// Aborted reports whether a download of the page began during the action,
// waiting up to downloadBeginWait for one: a navigation that the browser
// turned into a download ends with net::ERR_ABORTED, and the download's
// first event may come just after.
func (w *downloadWatch) Aborted(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, downloadBeginWait)
	defer cancel()
	return poll.Until(ctx, 20*time.Millisecond, func() (bool, error) {
		return len(w.log.ofPage(ctx, w.p, w.mark)) > 0, nil
	}) == nil
}

// Feedback adds to fb the page's downloads not yet reported, first waiting
// (up to downloadSettle) for those begun during the action to finish. The
// requests that became downloads are marked so in fb.Net instead of failed.
func (w *downloadWatch) Feedback(ctx context.Context, fb *feedback.Feedback) {
	l, p := w.log, w.p
	all := l.ofPage(ctx, p, 0)
	wctx, cancel := context.WithTimeout(ctx, downloadSettle)
	defer cancel()
	for _, d := range all {
		if d.seq <= w.mark {
			continue
		}
		select {
		case <-d.done:
		case <-wctx.Done():
		}
	}
	origin := feedback.Origin(p.URL())
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, d := range all {
		if d.reported {
			continue
		}
		d.reported = true
		if d.MIME == "" {
			d.MIME = w.mimeOf(d)
		}
		fd := feedback.Download{Name: d.Name, Size: d.Size, MIME: d.MIME, Path: d.Path}
		if d.State != "completed" {
			fd.State = d.State
		}
		fb.Downloads = append(fb.Downloads, fd)
		rel := feedback.RelURL(d.URL, origin)
		for i := range fb.Net {
			if (fb.Net[i].U == rel || fb.Net[i].U == d.URL) && fb.Net[i].E == "net::ERR_ABORTED" {
				fb.Net[i].E = "downloaded"
			}
		}
	}
	if len(fb.Downloads) > 0 && !fb.OK && fb.Code == int(cdpclient.CodeNetworkError) {
		// A navigation that answered with a file: the file is what arrived.
		fb.OK, fb.Code, fb.Msg, fb.Hint = true, 0, "", ""
	}
}

// mimeOf is a download's type: what the server said in the request that
// became it, else what its name or first bytes say.
func (w *downloadWatch) mimeOf(d *download) string {
	for _, e := range w.p.Door().Logs().Network(0) {
		if e.URL == d.URL && e.MIME != "" {
			return e.MIME
		}
	}
	if t := mime.TypeByExtension(filepath.Ext(d.Name)); t != "" {
		return strings.TrimSuffix(t, "; charset=utf-8")
	}
	if d.Path == "" {
		return ""
	}
	f, err := os.Open(d.Path)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := f.Read(head)
	return strings.TrimSuffix(http.DetectContentType(head[:n]), "; charset=utf-8")
}
