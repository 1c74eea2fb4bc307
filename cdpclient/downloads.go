package cdpclient

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cdpmcp/cdpmcp/internal/safefs"
	"github.com/mafredri/cdp/protocol/browser"
)

// Downloads are kept per session: each context cdpmcp creates saves its
// downloads in a folder of its own, so one session never sees, nor can hand a
// page (uploadFile), another's files. Without Options.DownloadsDir the folders
// are inside a launched browser's profile and go away with their context (and
// with a temporary profile on exit); with it, the default context saves into
// that folder and each isolated context into a subfolder, kept. The browser
// reports every download (downloadlog.go).

// setupDownloads points the default context's downloads at their folder, with
// download events on. An attached browser keeps its own folder and behaviour
// unless a DownloadsDir was given; cdpmcp still hears of its downloads.
func (b *Browser) setupDownloads(ctx context.Context, root string) error {
	b.downloadsRoot = root
	dir := root
	if dir == "" && b.proc != nil {
		dir = filepath.Join(b.proc.Profile(), "cdpmcp-downloads", "default")
	}
	return b.setDownloadFolder(ctx, b.def, dir)
}

// isolateDownloads points bc's downloads at a folder of its own.
func (b *Browser) isolateDownloads(ctx context.Context, bc *BrowserContext) error {
	var dir string
	switch {
	case b.downloadsRoot != "":
		if err := safefs.Dir(b.downloadsRoot, "the downloads folder (--downloads-dir)"); err != nil {
			return err
		}
		dir = filepath.Join(b.downloadsRoot, bc.id)
	case b.proc != nil:
		dir = filepath.Join(b.proc.Profile(), "cdpmcp-downloads", bc.id)
		bc.ownDownloads = true
	}
	return b.setDownloadFolder(ctx, bc, dir)
}

// setDownloadFolder makes the browser save bc's downloads in dir ("": where
// it would anyway) and report them.
func (b *Browser) setDownloadFolder(ctx context.Context, bc *BrowserContext, dir string) error {
	args := browser.NewSetDownloadBehaviorArgs("default").SetEventsEnabled(true)
	if dir != "" {
		if err := safefs.Dir(dir, "the downloads folder"); err != nil {
			return err
		}
		args = browser.NewSetDownloadBehaviorArgs("allow").SetDownloadPath(dir).SetEventsEnabled(true)
	}
	if bc.id != "" {
		args.SetBrowserContextID(browserContextID(bc.id))
	}
	if err := b.client.Browser.SetDownloadBehavior(ctx, args); err != nil {
		if bc.ownDownloads {
			_ = os.RemoveAll(dir)
		}
		return fmt.Errorf("Browser.setDownloadBehavior: %w", err)
	}
	bc.downloads = dir
	return nil
}

// DownloadDir is the folder this context's downloads go to, or "" when the
// browser decides (an attached browser without a DownloadsDir).
func (bc *BrowserContext) DownloadDir() string { return bc.downloads }

// removeDownloads removes a context's download folder if it is cdpmcp's own
// (inside the profile), not one the user named.
func (bc *BrowserContext) removeDownloads() {
	if bc.ownDownloads && bc.downloads != "" {
		_ = os.RemoveAll(bc.downloads)
	}
}
