package network

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/internal/safefs"
	"github.com/mafredri/cdp/protocol/browser"
)

// Downloads are kept per session: each context cdpmcp creates saves its
// downloads in a folder of its own, so one session never sees, nor can hand a
// page (uploadFile), another's files. Without Options.DownloadsDir the folders
// are inside a launched browser's profile and go away with their context (and
// with a temporary profile on exit); with it, the default context saves into
// that folder and each isolated context into a subfolder, kept. The browser
// reports every download (downloadlog.go), and each action's answer says
// which ones it started (downloadwatch.go).
func registerDownloads() {
	cdpclient.AddHooks(cdpclient.Hooks{Context: setUpFolder, BrowserEvent: onBrowserEvent, Action: watchAction})
}

// folderKey keeps a context's download folder (ContextDoor.Slot).
type folderKey struct{}

type folder struct{ dir string }

// DownloadDir is the folder bc's downloads go to, or "" when the browser
// decides (an attached browser without a DownloadsDir).
func DownloadDir(bc *cdpclient.BrowserContext) string {
	return bc.Door().Slot(folderKey{}, func() any { return &folder{} }).(*folder).dir
}

// setUpFolder points a context's downloads at its folder, with download
// events on. The default context's folder is Options.DownloadsDir, else one
// inside a launched browser's profile; an attached browser keeps its own
// folder and behaviour unless a DownloadsDir was given (cdpmcp still hears of
// its downloads). An isolated context's is a subfolder of either, the one in
// the profile removed when the context closes.
func setUpFolder(ctx context.Context, bc *cdpclient.BrowserContext) (func(), error) {
	b := bc.Browser()
	root, profile := b.Options().DownloadsDir, b.Profile()
	var (
		dir string
		own bool // the folder is cdpmcp's, removed with the context
	)
	switch {
	case bc.ID() == "":
		dir = root
		if dir == "" && profile != "" {
			dir = filepath.Join(profile, "cdpmcp-downloads", "default")
		}
	case root != "":
		if err := safefs.Dir(root, "the downloads folder (--downloads-dir)"); err != nil {
			return nil, err
		}
		dir = filepath.Join(root, bc.ID())
	case profile != "":
		dir, own = filepath.Join(profile, "cdpmcp-downloads", bc.ID()), true
	}
	if err := setFolder(ctx, bc, dir); err != nil {
		if own {
			_ = os.RemoveAll(dir)
		}
		return nil, err
	}
	bc.Door().Slot(folderKey{}, func() any { return &folder{} }).(*folder).dir = dir
	if !own {
		return nil, nil
	}
	return func() { _ = os.RemoveAll(dir) }, nil
}

// setFolder makes the browser save bc's downloads in dir ("": where it would
// anyway) and report them.
func setFolder(ctx context.Context, bc *cdpclient.BrowserContext, dir string) error {
	args := browser.NewSetDownloadBehaviorArgs("default").SetEventsEnabled(true)
	if dir != "" {
		if err := safefs.Dir(dir, "the downloads folder"); err != nil {
			return err
		}
		args = browser.NewSetDownloadBehaviorArgs("allow").SetDownloadPath(dir).SetEventsEnabled(true)
	}
	if bc.ID() != "" {
		args.SetBrowserContextID(browser.ContextID(bc.ID()))
	}
	params, err := json.Marshal(args)
	if err != nil {
		return err
	}
	_, err = bc.Browser().Raw(ctx, "Browser.setDownloadBehavior", params)
	var e *cdpclient.Error
	if errors.As(err, &e) && e.Err != nil {
		return fmt.Errorf("Browser.setDownloadBehavior: %w", e.Err) // the browser's refusal, as it said it
	}
	return err
}
