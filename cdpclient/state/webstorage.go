package state

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/jsfunc"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/runtime"
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
	err := d.Do(ctx, func(ctx context.Context, _ *cdp.Client) error {
		r, err := evalFunc(ctx, d, jsFuncs.Func("storageOp"), kind, op, key, value)
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

// evalFunc calls page function fn with args (as JSON) in cdpmcp's isolated
// world of the main frame, where the page's globals and prototypes neither
// run nor lie, and answers by value. Call it inside Door.Do.
func evalFunc(ctx context.Context, d cdpclient.Door, fn string, args ...any) (*runtime.EvaluateReply, error) {
	expr, err := jsfunc.Call(fn, args...)
	if err != nil {
		return nil, err
	}
	var r *runtime.EvaluateReply
	err = d.World(ctx, func(w *cdpclient.World) error {
		var err error
		r, err = w.Client().Runtime.Evaluate(ctx, runtime.NewEvaluateArgs(expr).SetContextID(w.ID()).
			SetReturnByValue(true).SetObjectGroup(w.Group()).SetAwaitPromise(true))
		if err != nil {
			return fmt.Errorf("evaluate: %w", err)
		}
		return nil
	})
	return r, err
}
