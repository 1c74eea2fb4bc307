package network

import (
	"context"
	"encoding/json"
	"mime"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/page"
)

// maxDownloads bounds the downloads a browser remembers.
const maxDownloads = 200

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
	frame    string
	p        *cdpclient.Page
	reported bool
	done     chan struct{} // closed when completed or canceled
}

// downloadLog keeps the downloads a browser reported, in order. It lives in
// a slot of the browser's default context, which lasts as long as it.
type downloadLog struct {
	mu   sync.Mutex
	seq  int
	list []*download
}

type logKey struct{}

func logOf(b *cdpclient.Browser) *downloadLog {
	return b.Default().Door().Slot(logKey{}, func() any { return &downloadLog{} }).(*downloadLog)
}

// onBrowserEvent records Browser.downloadWillBegin and downloadProgress. It
// runs on the read goroutine: no CDP calls.
func onBrowserEvent(b *cdpclient.Browser, method string, params json.RawMessage) {
	if method != "Browser.downloadWillBegin" && method != "Browser.downloadProgress" {
		return
	}
	var ev struct {
		FrameID       string  `json:"frameId"`
		GUID          string  `json:"guid"`
		URL           string  `json:"url"`
		Suggested     string  `json:"suggestedFilename"`
		TotalBytes    float64 `json:"totalBytes"`
		ReceivedBytes float64 `json:"receivedBytes"`
		State         string  `json:"state"`
		FilePath      string  `json:"filePath"`
	}
	if json.Unmarshal(params, &ev) != nil || ev.GUID == "" {
		return
	}
	var p *cdpclient.Page
	if method == "Browser.downloadWillBegin" {
		p = b.PageOfFrame(ev.FrameID)
	}
	l := logOf(b)
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

// mark is the number of downloads the browser has seen, for telling which
// ones an action started.
func (l *downloadLog) mark() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.seq
}

// ofPage returns the downloads of p after seq, claiming (by its frame tree)
// those whose frame was not known when they began.
func (l *downloadLog) ofPage(ctx context.Context, p *cdpclient.Page, seq int) []*download {
	l.mu.Lock()
	var unknown []*download
	for _, d := range l.list {
		if d.seq > seq && d.p == nil && d.frame != "" {
			unknown = append(unknown, d)
		}
	}
	l.mu.Unlock()
	if len(unknown) > 0 {
		var tree *page.GetFrameTreeReply
		_, err := p.Door().Run(ctx, cdpclient.ModeBare, func(ctx context.Context, c *cdp.Client) (err error) {
			tree, err = c.Page.GetFrameTree(ctx)
			return err
		})
		if err == nil {
			ids := map[string]bool{}
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

func collectFrames(t page.FrameTree, ids map[string]bool) {
	ids[string(t.Frame.ID)] = true
	for _, c := range t.ChildFrames {
		collectFrames(c, ids)
	}
}

// Downloads lists the downloads of bc's pages, oldest first.
func Downloads(bc *cdpclient.BrowserContext) []Download {
	l := logOf(bc.Browser())
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []Download
	for _, d := range l.list {
		if d.p != nil && d.p.Context() == bc {
			dd := d.Download
			if dd.MIME == "" {
				dd.MIME = strings.TrimSuffix(mime.TypeByExtension(filepath.Ext(dd.Name)), "; charset=utf-8")
			}
			out = append(out, dd)
		}
	}
	return out
}
