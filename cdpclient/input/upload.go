package input

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/dom"
)

// Waits for late changes (cdpclient.InputAction.LateMs).
const lateUpload = 250 // a page reading the files it was given

// chooserWait bounds the wait for a file chooser after clicking what should open
// one.
const chooserWait = 2 * time.Second

// UploadFile gives the page files as a person picking them would: into an
// <input type=file> directly, or through the file chooser that clicking the
// target opens (a styled button, a label, a drop zone). The page reads their
// names, types and bytes. Paths must name files on this machine.
func UploadFile(ctx context.Context, page *cdpclient.Page, t cdpclient.Target, paths []string) (*feedback.Feedback, error) {
	abs, err := uploadPaths(paths)
	if err != nil {
		return nil, err
	}
	p := on(page)
	return p.d.Run(ctx, cdpclient.ModeAct(cdpclient.InputAction{Target: t, NeedTarget: true, LateMs: lateUpload}), func(ctx context.Context, _ *cdp.Client) error {
		e := cdpclient.ActionElement(ctx)
		var in struct {
			File, Multiple bool
			Field          string
		}
		if err := call(ctx, e, "fileInput", &in); err != nil {
			return err
		}
		if in.Field != "" {
			return &cdpclient.Error{Code: cdpclient.CodeNotFound, Msg: "the target is a " + in.Field + ", not a file input: no file was uploaded",
				Hint: "target the <input type=file> itself (selector input[type=file]) or the button that opens the file chooser"}
		}
		if !in.File {
			return p.uploadThroughChooser(ctx, e, abs)
		}
		if len(abs) > 1 && !in.Multiple {
			return cdpclient.ArgErrorf("give one path: this file input takes one file", "the file input takes one file, not %d", len(abs))
		}
		cdpclient.Dispatched(ctx)
		return setFiles(ctx, e, abs)
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
			return nil, cdpclient.ArgErrorf("give paths of existing files on the machine running the server", "cannot upload %q: %v", path, err)
		}
		abs[i] = a
	}
	return abs, nil
}

// setFiles sets the files of the element, a file input or the label of one.
func setFiles(ctx context.Context, e *cdpclient.Element, paths []string) error {
	input, err := related(ctx, e, "fileControl")
	if err != nil {
		return err
	}
	if input == nil {
		return fmt.Errorf("fileControl: no object")
	}
	if err := input.Client().DOM.SetFileInputFiles(ctx, dom.NewSetFileInputFilesArgs(paths).SetObjectID(input.Object())); err != nil {
		return fmt.Errorf("set files: %w", err)
	}
	return nil
}

// uploadThroughChooser clicks the element with the page's file chooser
// intercepted and answers the chooser it opens with the files.
func (p *tab) uploadThroughChooser(ctx context.Context, e *cdpclient.Element, paths []string) error {
	fc, err := p.openFileChooser(ctx, e, chooserWait, e.Click)
	switch {
	case err != nil:
		return err
	case fc == nil:
		// The click reached the page (delta says what it did there), but
		// no file went in: the upload did not happen.
		return cdpclient.NotDone(&cdpclient.Error{Code: cdpclient.CodeNotFound, Msg: "clicking the element opened no file chooser: no file was uploaded",
			Hint: "target the <input type=file> itself (selector input[type=file]) or the button that opens the chooser; delta says what the click did"})
	case len(paths) > 1 && !fc.multiple:
		return &cdpclient.Error{Code: cdpclient.CodeValidation, Msg: fmt.Sprintf("the file chooser takes one file, not %d", len(paths)),
			Hint: "upload one file"}
	}
	return fc.setFiles(ctx, p.d, paths)
}
