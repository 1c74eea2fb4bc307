package cdpclient

import (
	"context"
	"encoding/json"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/mafredri/cdp/protocol/page"
)

const (
	// downloadSettle bounds how long an action's answer waits for a download
	// it started to finish; a larger file is reported in progress.
	downloadSettle = 5 * time.Second
	// downloadBeginWait bounds the wait, after a navigation ended in
	// net::ERR_ABORTED, for the download it may have become (its first event can
	// come seconds later on a loaded machine; a real abort is rare).
	downloadBeginWait = 3 * time.Second
	// maxDownloads bounds the downloads a browser remembers.
	maxDownloads = 200
)

// Download is a file the browser downloaded (or was asked to) for a page.
type Download struct {
	// Page is the id of the page it came from, "" when not known.
	Page  string
	URL   string
	Name  string // the suggested file name
	Path  string // where it was saved, once complete
	MIME  string
	Size  int64 // bytes received
	Total int64 // bytes expected, 0 when unknown
	// State is inProgress, completed or canceled.
	State   string
	Started time.Time
}

// download is the browser's record of one download.
type download struct {
	Download
	guid     string
	seq      int
	frame    page.FrameID
	p        *Page
	reported bool
	done     chan struct{} // closed when completed or canceled
}

// downloadLog keeps the downloads the browser reported, in order.
type downloadLog struct {
	mu   sync.Mutex
	seq  int
	list []*download
}

// onDownloadEvent records Browser.downloadWillBegin and downloadProgress. It
// runs on the read goroutine: no CDP calls.
func (b *Browser) onDownloadEvent(method string, params json.RawMessage) {
	var ev struct {
		FrameID       page.FrameID `json:"frameId"`
		GUID          string       `json:"guid"`
		URL           string       `json:"url"`
		Suggested     string       `json:"suggestedFilename"`
		TotalBytes    float64      `json:"totalBytes"`
		ReceivedBytes float64      `json:"receivedBytes"`
		State         string       `json:"state"`
		FilePath      string       `json:"filePath"`
	}
	if json.Unmarshal(params, &ev) != nil || ev.GUID == "" {
		return
	}
	var p *Page
	if method == "Browser.downloadWillBegin" {
		p = b.pageOfFrame(ev.FrameID)
	}
	l := &b.dl
	l.mu.Lock()
	defer l.mu.Unlock()
	d := l.find(ev.GUID)
	if d == nil {
		l.seq++
		d = &download{guid: ev.GUID, seq: l.seq, done: make(chan struct{}), Download: Download{State: "inProgress", Started: time.Now()}}
		if len(l.list) >= maxDownloads {
			l.list = append(l.list[:0], l.list[len(l.list)-maxDownloads/2:]...)
		}
		l.list = append(l.list, d)
	}
	switch method {
	case "Browser.downloadWillBegin":
		d.URL, d.Name, d.frame = ev.URL, ev.Suggested, ev.FrameID
		if p != nil {
			d.p, d.Page = p, p.ID
		}
	case "Browser.downloadProgress":
		d.Size, d.Total = int64(ev.ReceivedBytes), int64(ev.TotalBytes)
		if ev.FilePath != "" {
			d.Path = ev.FilePath
		}
		if d.State == "inProgress" && ev.State != "inProgress" {
			d.State = ev.State
			close(d.done)
		}
	}
}

func (l *downloadLog) find(guid string) *download {
	for _, d := range l.list {
		if d.guid == guid {
			return d
		}
	}
	return nil
}

// pageOfFrame is the page whose main frame or out-of-process frame id is;
// nil for a frame inside a page's own process (see ofPage).
func (b *Browser) pageOfFrame(id page.FrameID) *Page {
	b.mu.Lock()
	pages := make([]*Page, 0, len(b.pages))
	for _, p := range b.pages {
		pages = append(pages, p)
	}
	b.mu.Unlock()
	for _, p := range pages {
		p.mu.Lock()
		main := p.mainFrame == id
		p.mu.Unlock()
		if main || p.frameSessionFor(id) != nil {
			return p
		}
	}
	return nil
}

// ofPage returns the downloads of p after seq, claiming (by its frame tree)
// those whose frame was not known when they began.
func (b *Browser) ofPage(ctx context.Context, p *Page, seq int) []*download {
	l := &b.dl
	l.mu.Lock()
	var unknown []*download
	for _, d := range l.list {
		if d.seq > seq && d.p == nil && d.frame != "" {
			unknown = append(unknown, d)
		}
	}
	l.mu.Unlock()
	if len(unknown) > 0 {
		if tree, err := p.c.Page.GetFrameTree(ctx); err == nil {
			ids := map[page.FrameID]bool{}
			collectFrames(tree.FrameTree, ids)
			l.mu.Lock()
			for _, d := range unknown {
				if ids[d.frame] && d.p == nil {
					d.p, d.Page = p, p.ID
				}
			}
			l.mu.Unlock()
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []*download
	for _, d := range l.list {
		if d.seq > seq && d.p == p {
			out = append(out, d)
		}
	}
	return out
}

func collectFrames(t page.FrameTree, ids map[page.FrameID]bool) {
	ids[t.Frame.ID] = true
	for _, c := range t.ChildFrames {
		collectFrames(c, ids)
	}
}

// downloadMark is the number of downloads the browser has seen, for telling
// which ones an action started.
func (b *Browser) downloadMark() int {
	b.dl.mu.Lock()
	defer b.dl.mu.Unlock()
	return b.dl.seq
}

// reportDownloads adds to fb the page's downloads not yet reported, first
// waiting (up to downloadSettle) for those begun since mark to finish. The
// requests that became downloads are marked so in fb.Net instead of failed.
func (p *Page) reportDownloads(ctx context.Context, fb *feedback.Feedback, mark int) {
	b := p.bc.b
	all := b.ofPage(ctx, p, 0)
	wctx, cancel := context.WithTimeout(ctx, downloadSettle)
	defer cancel()
	for _, d := range all {
		if d.seq <= mark {
			continue
		}
		select {
		case <-d.done:
		case <-wctx.Done():
		}
	}
	origin := feedback.Origin(p.URL())
	b.dl.mu.Lock()
	defer b.dl.mu.Unlock()
	for _, d := range all {
		if d.reported {
			continue
		}
		d.reported = true
		if d.MIME == "" {
			d.MIME = p.downloadMIME(d)
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
	if len(fb.Downloads) > 0 && !fb.OK && fb.Code == int(CodeNetworkError) {
		// A navigation that answered with a file: the file is what arrived.
		fb.OK, fb.Code, fb.Msg, fb.Hint = true, 0, "", ""
	}
}

// downloadMIME is a download's type: what the server said in the request
// that became it, else what its name or first bytes say.
func (p *Page) downloadMIME(d *download) string {
	for _, e := range p.logs.Network(0) {
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

// Downloads lists the downloads of this context's pages, oldest first.
func (bc *BrowserContext) Downloads() []Download {
	l := &bc.b.dl
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []Download
	for _, d := range l.list {
		if d.p != nil && d.p.bc == bc {
			dd := d.Download
			if dd.MIME == "" {
				dd.MIME = strings.TrimSuffix(mime.TypeByExtension(filepath.Ext(dd.Name)), "; charset=utf-8")
			}
			out = append(out, dd)
		}
	}
	return out
}

// downloadBegan reports whether a download of p began after mark, waiting up
// to wait for one: a navigation that the browser turned into a download ends
// with net::ERR_ABORTED, and the download's first event may come just after.
func (p *Page) downloadBegan(ctx context.Context, mark int, wait time.Duration) bool {
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	return poll(ctx, 20*time.Millisecond, func() (bool, error) {
		return len(p.bc.b.ofPage(ctx, p, mark)) > 0, nil
	}) == nil
}
