package input

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/page"
)

// The file chooser an upload opens with a click (uploadThroughChooser): the
// page's sessions intercept it while the upload waits, and the upload answers
// it with the files. The chooser's event is heard from every page's first
// event on (Register): the core does not name the feature.

var registered sync.Once

// Register sets uploads through a file chooser up on every page made after
// it. A program calls it once, before it starts a browser: cmd/cdpmcp does,
// as does the TestMain of each test binary that uploads through a browser;
// later calls do nothing. Without it, an upload whose click opens a chooser
// finds none.
func Register() {
	registered.Do(func() {
		cdpclient.OnPageEvents(func(d cdpclient.Door) cdpclient.PageListener {
			w := choosersOf(d)
			return func(session, method string, params json.RawMessage) {
				if method == "Page.fileChooserOpened" {
					w.opened(session, params)
				}
			}
		})
	})
}

// fileChooser is a file chooser the page opened (openFileChooser).
type fileChooser struct {
	session  string // the page's session that opened it (cdpclient.Door.Session)
	backend  dom.BackendNodeID
	multiple bool // it takes several files
}

// chooserWaiter is where a file chooser the page opens goes while an upload
// waits for one (nil: none waits).
type chooserWaiter struct {
	mu sync.Mutex
	ch chan fileChooser
}

type chooserKey struct{}

func choosersOf(d cdpclient.Door) *chooserWaiter {
	return d.Slot(chooserKey{}, func() any { return &chooserWaiter{} }).(*chooserWaiter)
}

func (w *chooserWaiter) set(ch chan fileChooser) {
	w.mu.Lock()
	w.ch = ch
	w.mu.Unlock()
}

// opened hands a file chooser the page opened to the upload waiting for it
// (there is none when the page opened it on its own: it stays closed). It
// runs on the connection's read goroutine: it never blocks.
func (w *chooserWaiter) opened(session string, params json.RawMessage) {
	var ev page.FileChooserOpenedReply
	if json.Unmarshal(params, &ev) != nil || ev.BackendNodeID == nil {
		return
	}
	w.mu.Lock()
	ch := w.ch
	w.mu.Unlock()
	if ch == nil {
		return
	}
	select {
	case ch <- fileChooser{session: session, backend: *ev.BackendNodeID, multiple: ev.Mode == "selectMultiple"}:
	default:
	}
}

// openFileChooser runs open (a click on e that should open the page's file
// chooser) with the chooser intercepted in the page's session and e's, and
// returns the chooser it opened; nil when none opened within wait.
func (p *tab) openFileChooser(ctx context.Context, e *cdpclient.Element, wait time.Duration, open func(ctx context.Context) error) (*fileChooser, error) {
	w := choosersOf(p.d)
	ch := make(chan fileChooser, 1)
	w.set(ch)
	defer w.set(nil)
	own, err := p.d.Session("")
	if err != nil {
		return nil, err
	}
	clients := []*cdp.Client{own.Client()}
	if c := e.Client(); c != own.Client() {
		clients = append(clients, c)
	}
	for _, c := range clients {
		if err := c.Page.SetInterceptFileChooserDialog(ctx, page.NewSetInterceptFileChooserDialogArgs(true)); err != nil {
			return nil, fmt.Errorf("intercept file chooser: %w", err)
		}
		defer func() {
			ctx, cancel := context.WithTimeout(context.Background(), cdpclient.CallTimeout)
			defer cancel()
			_ = c.Page.SetInterceptFileChooserDialog(ctx, page.NewSetInterceptFileChooserDialogArgs(false))
		}()
	}
	if err := open(ctx); err != nil {
		return nil, err
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case fc := <-ch:
		return &fc, nil
	case <-t.C:
		return nil, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// setFiles answers the chooser with files (absolute paths).
func (fc *fileChooser) setFiles(ctx context.Context, d cdpclient.Door, paths []string) error {
	s, err := d.Session(fc.session)
	if err != nil {
		return err
	}
	if err := s.Client().DOM.SetFileInputFiles(ctx, dom.NewSetFileInputFilesArgs(paths).SetBackendNodeID(fc.backend)); err != nil {
		return fmt.Errorf("set files: %w", err)
	}
	return nil
}
