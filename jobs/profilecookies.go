package jobs

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
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

// savedCookie is what Storage.getCookies says of a cookie that
// Storage.setCookies takes back.
type savedCookie struct {
	Name         string          `json:"name"`
	Value        string          `json:"value"`
	Domain       string          `json:"domain"`
	Path         string          `json:"path"`
	Expires      float64         `json:"expires"`
	HTTPOnly     bool            `json:"httpOnly"`
	Secure       bool            `json:"secure"`
	Session      bool            `json:"session,omitempty"`
	SameSite     string          `json:"sameSite,omitempty"`
	Priority     string          `json:"priority,omitempty"`
	SourceScheme string          `json:"sourceScheme,omitempty"`
	SourcePort   int             `json:"sourcePort,omitempty"`
	PartitionKey json.RawMessage `json:"partitionKey,omitempty"`
}

// saveCookies writes the cookies of the profile's browser b that outlive a
// restart to the profile's cookieFile.
func saveCookies(b *cdpclient.Browser, dir string) error {
	ctx, cancel := context.WithTimeout(context.Background(), cookieCallTimeout)
	defer cancel()
	raw, err := b.Raw(ctx, "Storage.getCookies", nil)
	if err != nil {
		return err
	}
	var got struct {
		Cookies []savedCookie `json:"cookies"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		return fmt.Errorf("Storage.getCookies: %w", err)
	}
	kept := []savedCookie{}
	for _, c := range got.Cookies {
		if !c.Session {
			c.Session = false
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
	var saved []savedCookie
	if err := json.Unmarshal(data, &saved); err != nil {
		return fmt.Errorf("%s: %w", cookieFile, err)
	}
	now := float64(time.Now().Unix())
	live := make([]savedCookie, 0, len(saved))
	for _, c := range saved {
		if c.Expires > now {
			live = append(live, c)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), cookieCallTimeout)
	defer cancel()
	if _, err := b.Raw(ctx, "Storage.clearCookies", nil); err != nil {
		return err
	}
	if len(live) == 0 {
		return nil
	}
	params, err := json.Marshal(map[string]any{"cookies": live})
	if err != nil {
		return err
	}
	_, err = b.Raw(ctx, "Storage.setCookies", params)
	return err
}
