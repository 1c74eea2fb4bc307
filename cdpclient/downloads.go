package cdpclient

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mafredri/cdp/protocol/browser"
)

// Downloads are kept per session: each context cdpmcp creates in a browser it
// launched saves its downloads in a folder of its own inside the browser's
// profile, removed when the context closes (and with a temporary profile on
// exit). Without this every context would share the browser's one download
// folder, and a session could hand another's files to a page (uploadFile).

// isolateDownloads points bc's downloads at a folder of its own.
func (b *Browser) isolateDownloads(ctx context.Context, bc *BrowserContext) error {
	if b.proc == nil || bc.id == "" {
		return nil // an attached browser's folders are the user's
	}
	dir := filepath.Join(b.proc.profile, "cdpmcp-downloads", bc.id)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("download folder: %w", err)
	}
	args := browser.NewSetDownloadBehaviorArgs("allow").SetBrowserContextID(browserContextID(bc.id)).SetDownloadPath(dir)
	if err := b.client.Browser.SetDownloadBehavior(ctx, args); err != nil {
		_ = os.RemoveAll(dir)
		return fmt.Errorf("Browser.setDownloadBehavior: %w", err)
	}
	bc.downloads = dir
	return nil
}

// DownloadDir is the folder this context's downloads go to, or "" when the
// browser decides (its default context, an attached browser).
func (bc *BrowserContext) DownloadDir() string { return bc.downloads }

func (bc *BrowserContext) removeDownloads() {
	if bc.downloads != "" {
		_ = os.RemoveAll(bc.downloads)
	}
}
