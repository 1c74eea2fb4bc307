package jobs

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/state"
)

// A profile's browser writes its cookies to disk every 30 seconds or so, and
// when it exits: a server killed in between (a crash, SIGKILL, the machine
// going down) would lose the last sign-in of a job that SUCCEEDED. So each
// job of a profile leaves the profile's cookies, as the browser holds them
// when it ends, in cookieFile; a browser started for the profile gets them
// back before its first job, in place of what its own store had kept, which
// is never newer. Only the cookies a browser keeps across a restart are
// saved (not session cookies), as a clean exit would have.

// cookieFile is the profile folder's file of its cookies at its last job's end.
const cookieFile = "Default/cdpmcp-cookies.json"

// cookieCallTimeout bounds the save and the restore.
const cookieCallTimeout = 5 * time.Second

// saveCookies writes the cookies of the profile's browser b that outlive a
// restart to the profile's cookieFile.
func saveCookies(b *cdpclient.Browser, dir string) error {
	ctx, cancel := context.WithTimeout(context.Background(), cookieCallTimeout)
	defer cancel()
	all, err := state.Cookies(ctx, b.Default())
	if err != nil {
		return err
	}
	kept := []state.Cookie{}
	for _, c := range all {
		if c.Expires > 0 { // a session cookie's is -1
			kept = append(kept, c)
		}
	}
	data, err := json.Marshal(kept)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, filepath.FromSlash(cookieFile))
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// restoreCookies gives the profile's new browser b the cookies of the
// profile's last job, from its cookieFile, in place of its own; those
// expired since are left out. Without the file (no job ended yet) the
// browser keeps what it loaded.
func restoreCookies(b *cdpclient.Browser, dir string) error {
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(cookieFile)))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	var saved []state.Cookie
	if err := json.Unmarshal(data, &saved); err != nil {
		return fmt.Errorf("%s: %w", cookieFile, err)
	}
	now := float64(time.Now().Unix())
	live := make([]state.Cookie, 0, len(saved))
	for _, c := range saved {
		if c.Expires > now && c.Domain != "" {
			live = append(live, c)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), cookieCallTimeout)
	defer cancel()
	bc := b.Default()
	if _, err := state.DeleteCookies(ctx, bc, "", ""); err != nil {
		return err
	}
	if len(live) == 0 {
		return nil
	}
	return state.SetCookies(ctx, bc, live, "")
}
