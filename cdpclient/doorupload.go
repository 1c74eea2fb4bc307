package cdpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/page"
)

// What the door gives an upload: the page's file chooser, opened by a click
// and answered with files.

// FileChooser is a file chooser the page opened (InputDoor.OpenFileChooser).
type FileChooser struct {
	c        *cdp.Client // the session of the frame that opened it
	backend  dom.BackendNodeID
	Multiple bool // it takes several files
}

// chooserWait is where a file chooser the page opens goes while an upload
// waits for one (nil: none waits).
type chooserWait struct {
	mu sync.Mutex
	ch chan FileChooser
}

func (w *chooserWait) set(ch chan FileChooser) {
	w.mu.Lock()
	w.ch = ch
	w.mu.Unlock()
}

func (w *chooserWait) get() chan FileChooser {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ch
}

// SetFiles answers the chooser with files (absolute paths).
func (fc *FileChooser) SetFiles(ctx context.Context, paths []string) error {
	if err := fc.c.DOM.SetFileInputFiles(ctx, dom.NewSetFileInputFilesArgs(paths).SetBackendNodeID(fc.backend)); err != nil {
		return fmt.Errorf("set files: %w", err)
	}
	return nil
}

// OpenFileChooser runs open (a click on e that should open the page's file
// chooser) with the chooser intercepted in the page's session and e's
// frame's, and returns the chooser it opened; nil when none opened within
// wait.
func (in InputDoor) OpenFileChooser(ctx context.Context, e *Element, wait time.Duration, open func(ctx context.Context) error) (*FileChooser, error) {
	p := in.p
	ch := make(chan FileChooser, 1)
	p.chooser.set(ch)
	defer p.chooser.set(nil)
	clients := []*cdp.Client{p.c}
	if e.frame != nil {
		clients = append(clients, e.frame.c)
	}
	for _, c := range clients {
		if err := c.Page.SetInterceptFileChooserDialog(ctx, page.NewSetInterceptFileChooserDialogArgs(true)); err != nil {
			return nil, fmt.Errorf("intercept file chooser: %w", err)
		}
		defer func() {
			ctx, cancel := context.WithTimeout(context.Background(), cdpCallTimeout)
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

// onFileChooser hands a file chooser the page opened to the upload waiting for
// it (there is none when the page opened it on its own: it stays closed).
func (p *Page) onFileChooser(c *cdp.Client, params json.RawMessage) {
	var ev page.FileChooserOpenedReply
	if json.Unmarshal(params, &ev) != nil || ev.BackendNodeID == nil {
		return
	}
	ch := p.chooser.get()
	if ch == nil {
		return
	}
	select {
	case ch <- FileChooser{c: c, backend: *ev.BackendNodeID, Multiple: ev.Mode == "selectMultiple"}:
	default:
	}
}
