package cdpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient/cdppolicy"
	"github.com/mafredri/cdp/protocol/target"
)

// The raw passthrough is confined in every mode: cdppolicy says which methods
// pass, and for those that can name other sessions' targets or contexts, or
// load a URL, the calls below check and rewrite them so that a caller sees and
// touches only its own browser context and the origin rules hold.

// BrowserCDP sends a raw protocol call to the browser target on behalf of the
// session that owns bc. A method the policy refuses is an *Error with
// CodePermission wrapping a *cdppolicy.Refusal.
func (bc *BrowserContext) BrowserCDP(ctx context.Context, method string, params json.RawMessage, readOnly bool) (json.RawMessage, error) {
	params, scope, err := bc.confine(ctx, method, cdppolicy.Browser, readOnly, params, "")
	if err != nil {
		return nil, err
	}
	out, err := bc.b.Raw(ctx, method, params)
	if err != nil {
		return nil, err
	}
	return bc.filterResult(scope, out)
}

// CDP sends a raw protocol call to the page's own session, confined as
// BrowserCDP is.
func (p *Page) CDP(ctx context.Context, method string, params json.RawMessage, readOnly bool) (json.RawMessage, error) {
	if scope, err := cdppolicy.Check(method, cdppolicy.Page, readOnly, params); err == nil && scope == cdppolicy.NewTarget {
		// A page session cannot name a context; the browser opens the tab in
		// the caller's.
		return p.bc.BrowserCDP(ctx, method, params, readOnly)
	}
	params, scope, err := p.bc.confine(ctx, method, cdppolicy.Page, readOnly, params, p.targetID)
	if err != nil {
		return nil, err
	}
	out, err := p.Raw(ctx, method, params)
	if err != nil {
		return nil, err
	}
	return p.bc.filterResult(scope, out)
}

// confine checks a call against the policy and applies its scope to the
// parameters. self is the calling page's target ("" at browser level).
func (bc *BrowserContext) confine(ctx context.Context, method string, level cdppolicy.Level, readOnly bool, params json.RawMessage, self target.ID) (json.RawMessage, cdppolicy.Scope, error) {
	scope, err := cdppolicy.Check(method, level, readOnly, params)
	if err != nil {
		return nil, 0, refusal(err)
	}
	args := map[string]json.RawMessage{}
	if len(params) > 0 && string(params) != "null" {
		if err := json.Unmarshal(params, &args); err != nil {
			return nil, 0, argError(`pass params as a JSON object, e.g. {"targetId":"…"}`, "params: %v", err)
		}
	}
	switch scope {
	case cdppolicy.OwnContext:
		if level == cdppolicy.Page {
			delete(args, "browserContextId") // a page's session acts on its own context
			break
		}
		bc.setContextParam(args)
	case cdppolicy.OwnTarget:
		var id target.ID
		if raw, ok := args["targetId"]; ok {
			if err := json.Unmarshal(raw, &id); err != nil {
				return nil, 0, argError(`pass targetId as a string`, "targetId: %v", err)
			}
		}
		if id != "" && id != self {
			if err := bc.checkOwnTarget(ctx, method, id); err != nil {
				return nil, 0, err
			}
		}
	case cdppolicy.CheckURL:
		if err := bc.checkURLParam(method, args, false); err != nil {
			return nil, 0, err
		}
	case cdppolicy.NewTarget:
		if err := bc.checkURLParam(method, args, true); err != nil {
			return nil, 0, err
		}
		bc.setContextParam(args)
	}
	if scope == cdppolicy.Free && len(args) == 0 {
		return params, scope, nil // sent as given
	}
	if len(args) == 0 {
		return nil, scope, nil
	}
	out, err := json.Marshal(args)
	return out, scope, err
}

// setContextParam makes a call act on bc: the default context is the one a
// browser-level call without browserContextId acts on.
func (bc *BrowserContext) setContextParam(args map[string]json.RawMessage) {
	if bc.id == "" {
		delete(args, "browserContextId")
		return
	}
	id, _ := json.Marshal(bc.id)
	args["browserContextId"] = id
}

// checkURLParam applies the origin rules and the scheme rules to a call's url.
func (bc *BrowserContext) checkURLParam(method string, args map[string]json.RawMessage, optional bool) error {
	raw, ok := args["url"]
	if !ok {
		if optional {
			return nil
		}
		return argError(`pass url, e.g. {"url":"https://example.com"}`, "%s needs url", method)
	}
	var u string
	if err := json.Unmarshal(raw, &u); err != nil {
		return argError(`pass url as a string`, "url: %v", err)
	}
	if err := bc.b.policy.Check(strings.TrimSpace(u)); err != nil {
		return refusal(&cdppolicy.Refusal{Method: method, Why: "its url is refused: " + err.Error()})
	}
	return nil
}

// checkOwnTarget refuses a target of another browser context. Ownership is
// asked of the browser, so workers and frames count as well as tabs.
func (bc *BrowserContext) checkOwnTarget(ctx context.Context, method string, id target.ID) error {
	r, err := bc.b.client.Target.GetTargetInfo(ctx, target.NewGetTargetInfoArgs().SetTargetID(id))
	if err != nil || !bc.owns(r.TargetInfo) {
		// The same answer for a target that does not exist and one of another
		// session's, so a caller cannot probe for the others' ids.
		return refusal(&cdppolicy.Refusal{Method: method, Why: fmt.Sprintf("target %s is not one of this session's", id)})
	}
	return nil
}

// owns says whether a target belongs to bc. The default context owns every
// target that is not in a context cdpmcp created for a session.
func (bc *BrowserContext) owns(info target.Info) bool {
	ctxID := ""
	if info.BrowserContextID != nil {
		ctxID = string(*info.BrowserContextID)
	}
	if bc.id != "" {
		return ctxID == bc.id
	}
	bc.b.mu.Lock()
	defer bc.b.mu.Unlock()
	_, other := bc.b.contexts[ctxID]
	return !other
}

// filterResult keeps only bc's own targets or contexts in a result.
func (bc *BrowserContext) filterResult(scope cdppolicy.Scope, out json.RawMessage) (json.RawMessage, error) {
	switch scope {
	case cdppolicy.FilterTargets:
		var r struct {
			TargetInfos []target.Info `json:"targetInfos"`
		}
		if err := json.Unmarshal(out, &r); err != nil {
			return nil, fmt.Errorf("Target.getTargets: %w", err)
		}
		mine := []target.Info{}
		for _, t := range r.TargetInfos {
			if bc.owns(t) {
				mine = append(mine, t)
			}
		}
		r.TargetInfos = mine
		return json.Marshal(r)
	case cdppolicy.FilterContexts:
		var r struct {
			BrowserContextIDs []string `json:"browserContextIds"`
		}
		if err := json.Unmarshal(out, &r); err != nil {
			return nil, fmt.Errorf("Target.getBrowserContexts: %w", err)
		}
		mine := []string{}
		for _, id := range r.BrowserContextIDs {
			info := target.Info{BrowserContextID: new(browserContextID(id))}
			if bc.owns(info) {
				mine = append(mine, id)
			}
		}
		r.BrowserContextIDs = mine
		return json.Marshal(r)
	}
	return out, nil
}

// refusal turns a policy refusal into a PERMISSION error.
func refusal(err error) error {
	var r *cdppolicy.Refusal
	if !errors.As(err, &r) {
		return err
	}
	return &Error{Code: CodePermission, Msg: r.Error(), Err: r}
}
