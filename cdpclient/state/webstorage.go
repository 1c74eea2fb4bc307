package state

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mafredri/cdp"
)

// StorageResult is what a web-storage operation answers: the page's origin,
// the entries read, whether the key was missing.
type StorageResult struct {
	Origin  string      `json:"origin"`
	Entries [][2]string `json:"entries"`
	Missing bool        `json:"missing"`
	Length  int         `json:"length"`
}

// WebStorage does op (list, get, set, delete, clear) on the page's
// localStorage (kind "local") or sessionStorage ("session"), for the origin of
// its main frame. It runs no page code; a set or delete fires the storage
// event in the origin's other tabs, as it would for the page.
func WebStorage(ctx context.Context, p *cdpclient.Page, kind, op, key, value string) (*StorageResult, error) {
	switch kind {
	case "", "local":
		kind = "local"
	case "session":
	default:
		return nil, cdpclient.ArgErrorf("use local or session", "storage kind %q is not known", kind)
	}
	switch op {
	case "list", "clear":
	case "get", "set", "delete":
		if key == "" {
			return nil, cdpclient.ArgErrorf(fmt.Sprintf(`give the key, e.g. {"op":%q,"key":"theme"}`, op), "%s needs a key", op)
		}
	default:
		return nil, cdpclient.ArgErrorf("use list, get, set, delete or clear", "storage operation %q is not known", op)
	}
	var res StorageResult
	d := p.Door()
	_, err := d.Run(ctx, cdpclient.ModeRead, func(ctx context.Context, _ *cdp.Client) error {
		r, err := d.CallInWorld(ctx, jsFuncs.Func("storageOp"), kind, op, key, value)
		if err != nil {
			return err
		}
		if r.ExceptionDetails != nil {
			return &cdpclient.Error{Code: cdpclient.CodePermission, Msg: "the page's storage cannot be used: " + cdpclient.ExceptionText(r.ExceptionDetails),
				Hint: "open a page of the site first (about:blank and data: pages have no storage)"}
		}
		return json.Unmarshal(r.Result.Value, &res)
	})
	return &res, err
}
