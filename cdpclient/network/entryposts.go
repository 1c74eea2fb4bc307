package network

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/page"
)

// Whether loading a history entry again (a reload, back, forward) would post a
// form again is a property of the entry: Chromium keeps the form's data with
// the entry it made. CDP does not expose it, so the tab learns it as each
// entry commits: the method of the main-frame document that made it (after
// redirects: a post answered by a redirect left a GET) is kept by the entry's
// id, for every entry the tab's history holds (Chromium keeps 50), apart from
// the network log a page can flood. An entry committed before cdpmcp saw it is
// judged by its transition: a form submission may have been a post.

// A tab's entries are learnt from its first event (the core's door for page
// events, cdpclient/doornet.go).
func registerEntryPosts() {
	cdpclient.OnPageEvents(func(d cdpclient.Door) cdpclient.PageListener {
		e := entryPostsOf(d)
		return func(session, method string, params json.RawMessage) {
			if session != "" {
				return // an out-of-process frame's: not the tab's history
			}
			switch method {
			case "Network.requestWillBeSent":
				e.onDocumentRequest(d, params)
			case "Page.frameNavigated":
				var ev page.FrameNavigatedReply
				if json.Unmarshal(params, &ev) == nil && ev.Frame.ParentID == nil {
					e.noteEntry(d, string(ev.Frame.LoaderID), ev.Frame.URL)
				}
			}
		}
	})
}

// entryPostsKey is the key of a tab's entryPosts in its door's slot.
type entryPostsKey struct{}

func entryPostsOf(d cdpclient.Door) *entryPosts {
	return d.Slot(entryPostsKey{}, func() any { return &entryPosts{} }).(*entryPosts)
}

// maxEntryRecords bounds the entries remembered: more than a tab's history.
const maxEntryRecords = 128

// entryPosts is what a tab knows of its history entries' methods.
type entryPosts struct {
	mu       sync.Mutex
	byLoader map[string]string // main-frame document loads: loader id → method
	loaders  []string          // in order, to forget the oldest
	byEntry  map[int]bool      // history entry id → it was a post
	entries  []int
	current  string // the loader of the main frame's document now
}

// onRequest notes a main-frame document request (the last of a load's
// redirects decides the method).
func (e *entryPosts) onRequest(loader, method string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.byLoader == nil {
		e.byLoader, e.byEntry = map[string]string{}, map[int]bool{}
	}
	if _, ok := e.byLoader[loader]; !ok {
		e.loaders = append(e.loaders, loader)
		if len(e.loaders) > maxEntryRecords {
			delete(e.byLoader, e.loaders[0])
			e.loaders = e.loaders[1:]
		}
	}
	e.byLoader[loader] = method
}

// navigated notes the main frame's document now.
func (e *entryPosts) navigated(loader string) {
	e.mu.Lock()
	e.current = loader
	e.mu.Unlock()
}

// currentPosted says whether the document the tab shows came from a post, when
// its load was seen.
func (e *entryPosts) currentPosted() (posted, known bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	method, known := e.byLoader[e.current]
	return method == "POST", known
}

// commit ties the entry id to the load that made it.
func (e *entryPosts) commit(id int, loader string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	method, ok := e.byLoader[loader]
	if !ok {
		return
	}
	if _, seen := e.byEntry[id]; !seen {
		e.entries = append(e.entries, id)
		if len(e.entries) > maxEntryRecords {
			delete(e.byEntry, e.entries[0])
			e.entries = e.entries[1:]
		}
	}
	e.byEntry[id] = method == "POST"
}

func (e *entryPosts) posted(id int) (posted, known bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	posted, known = e.byEntry[id]
	return posted, known
}

// onDocumentRequest records the method of a main-frame document request
// (network event params); it runs on the read goroutine.
func (e *entryPosts) onDocumentRequest(d cdpclient.Door, params json.RawMessage) {
	var ev struct {
		RequestID string `json:"requestId"`
		LoaderID  string `json:"loaderId"`
		FrameID   string `json:"frameId"`
		Type      string `json:"type"`
		Request   struct {
			Method string `json:"method"`
		} `json:"request"`
	}
	if json.Unmarshal(params, &ev) != nil || ev.Type != "Document" || ev.RequestID != ev.LoaderID {
		return
	}
	if main := d.Frames().Main(); main == "" || ev.FrameID == main {
		e.onRequest(ev.LoaderID, ev.Request.Method)
	}
}

// noteEntry learns, off the read goroutine, which history entry the main
// frame's new document (from loader, at url) is.
func (e *entryPosts) noteEntry(d cdpclient.Door, loader, url string) {
	e.navigated(loader)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		h, err := history(ctx, d)
		if err != nil || h.CurrentIndex < 0 || h.CurrentIndex >= len(h.Entries) {
			return
		}
		cur := h.Entries[h.CurrentIndex]
		if stripFragment(cur.URL) == stripFragment(url) {
			e.commit(cur.ID, loader)
		}
	}()
}

func stripFragment(u string) string {
	u, _, _ = strings.Cut(u, "#")
	return u
}

// PostedEntry reports whether going delta steps in the tab's history (0: a
// reload) would load a document the page got by posting a form: doing so may
// send the form again. It is decided by the entry (see entryPosts); an error
// reading the history is returned, for the caller to refuse.
func PostedEntry(ctx context.Context, p *cdpclient.Page, delta int) (bool, error) {
	d := p.Door()
	e := entryPostsOf(d)
	h, err := history(ctx, d)
	if err != nil {
		return false, fmt.Errorf("read history: %w", err)
	}
	i := h.CurrentIndex + delta
	if i < 0 || i >= len(h.Entries) {
		return false, nil
	}
	entry := h.Entries[i]
	if posted, known := e.posted(entry.ID); known {
		return posted, nil
	}
	if delta == 0 { // the entry shown: its load was seen even if not yet tied to it
		if posted, known := e.currentPosted(); known {
			return posted, nil
		}
	}
	return entry.TransitionType == "form_submit", nil
}

// history is the tab's history now: a read the browser answers at once,
// under none of the page's rules (cdpclient.ModeBare).
func history(ctx context.Context, d cdpclient.Door) (h *page.GetNavigationHistoryReply, err error) {
	_, err = d.Run(ctx, cdpclient.ModeBare, func(ctx context.Context, c *cdp.Client) error {
		h, err = c.Page.GetNavigationHistory(ctx)
		return err
	})
	return h, err
}
