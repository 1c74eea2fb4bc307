package cdpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/page"
)

// chooserWait bounds the wait for a file chooser after clicking what should open
// one.
const chooserWait = 2 * time.Second

// fileChooser is a file chooser the page opened (Page.fileChooserOpened), with
// the session of the frame that opened it.
type fileChooser struct {
	c        *cdp.Client
	backend  dom.BackendNodeID
	multiple bool
}

// UploadFile gives the page files as a person picking them would: into an
// <input type=file> directly, or through the file chooser that clicking the
// target opens (a styled button, a label, a drop zone). The page reads their
// names, types and bytes. Paths must name files on this machine.
func (p *Page) UploadFile(ctx context.Context, t Target, paths []string) (*feedback.Feedback, error) {
	abs, err := uploadPaths(paths)
	if err != nil {
		return nil, err
	}
	return p.onElement(ctx, t, lateUpload, func(ctx context.Context, e *Element) (string, error) {
		var in struct {
			File, Multiple bool
		}
		if err := e.call(ctx, "fileInput", &in); err != nil {
			return "", err
		}
		if !in.File {
			return "", p.uploadThroughChooser(ctx, e, abs)
		}
		if len(abs) > 1 && !in.Multiple {
			return "", argError("give one path: this file input takes one file", "the file input takes one file, not %d", len(abs))
		}
		markDispatched(ctx)
		return "", e.setFiles(ctx, abs)
	})
}

// uploadPaths checks the paths and makes them absolute.
func uploadPaths(paths []string) ([]string, error) {
	abs := make([]string, len(paths))
	for i, path := range paths {
		a, err := filepath.Abs(path)
		if err == nil {
			var fi os.FileInfo
			if fi, err = os.Stat(a); err == nil && fi.IsDir() {
				err = errors.New("is a directory")
			}
		}
		if err != nil {
			return nil, argError("give paths of existing files on the machine running the server", "cannot upload %q: %v", path, err)
		}
		abs[i] = a
	}
	return abs, nil
}

// setFiles sets the files of the element, a file input or the label of one.
func (e *Element) setFiles(ctx context.Context, paths []string) error {
	input, err := e.callObject(ctx, "fileControl")
	if err != nil {
		return err
	}
	if err := e.c.DOM.SetFileInputFiles(ctx, dom.NewSetFileInputFilesArgs(paths).SetObjectID(input)); err != nil {
		return fmt.Errorf("set files: %w", err)
	}
	return nil
}

// uploadThroughChooser clicks the element with the page's file chooser
// intercepted and answers the chooser it opens with the files.
func (p *Page) uploadThroughChooser(ctx context.Context, e *Element, paths []string) error {
	ch := make(chan fileChooser, 1)
	p.mu.Lock()
	p.chooser = ch
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		p.chooser = nil
		p.mu.Unlock()
	}()
	clients := []*cdp.Client{p.c}
	if e.frame != nil {
		clients = append(clients, e.frame.c)
	}
	for _, c := range clients {
		if err := c.Page.SetInterceptFileChooserDialog(ctx, page.NewSetInterceptFileChooserDialogArgs(true)); err != nil {
			return fmt.Errorf("intercept file chooser: %w", err)
		}
		defer func() {
			ctx, cancel := context.WithTimeout(context.Background(), cdpCallTimeout)
			defer cancel()
			_ = c.Page.SetInterceptFileChooserDialog(ctx, page.NewSetInterceptFileChooserDialogArgs(false))
		}()
	}
	if _, err := e.actionable(ctx, need{visible: true, enabled: true}); err != nil {
		return err
	}
	pt, err := e.clickablePoint(ctx)
	if err != nil {
		return err
	}
	if err := p.mouseClick(ctx, pt.X, pt.Y, "left", 1, 0); err != nil {
		return err
	}
	t := time.NewTimer(chooserWait)
	defer t.Stop()
	select {
	case fc := <-ch:
		if len(paths) > 1 && !fc.multiple {
			return &Error{Code: CodeValidation, Msg: fmt.Sprintf("the file chooser takes one file, not %d", len(paths)),
				Hint: "upload one file"}
		}
		if err := fc.c.DOM.SetFileInputFiles(ctx, dom.NewSetFileInputFilesArgs(paths).SetBackendNodeID(fc.backend)); err != nil {
			return fmt.Errorf("set files: %w", err)
		}
		return nil
	case <-t.C:
		return &Error{Code: CodeNotFound, Msg: "clicking the element opened no file chooser",
			Hint: "target the <input type=file> itself (selector input[type=file]) or the button that opens the chooser"}
	case <-ctx.Done():
		return ctx.Err()
	}
}

// onFileChooser hands a file chooser the page opened to the upload waiting for
// it (there is none when the page opened it on its own: it stays closed).
func (p *Page) onFileChooser(c *cdp.Client, params json.RawMessage) {
	var ev page.FileChooserOpenedReply
	if json.Unmarshal(params, &ev) != nil || ev.BackendNodeID == nil {
		return
	}
	p.mu.Lock()
	ch := p.chooser
	p.mu.Unlock()
	if ch == nil {
		return
	}
	select {
	case ch <- fileChooser{c: c, backend: *ev.BackendNodeID, multiple: ev.Mode == "selectMultiple"}:
	default:
	}
}
