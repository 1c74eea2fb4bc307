package passthrough

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/cdppolicy"
	"github.com/cdpmcp/cdpmcp/cdpclient/eval"
	"github.com/mafredri/cdp/protocol/browser"
	"github.com/mafredri/cdp/protocol/target"
)

// Browser sends a raw protocol call to the browser target on behalf of the
// session that owns bc. A method the policy refuses is an *Error with
// CodePermission wrapping a *cdppolicy.Refusal.
func Browser(ctx context.Context, bc *cdpclient.BrowserContext, method string, params json.RawMessage, readOnly bool) (json.RawMessage, error) {
	params, scope, err := confine(ctx, bc, method, cdppolicy.Browser, readOnly, params, "")
	if err != nil {
		return nil, err
	}
	out, err := bc.Browser().Raw(ctx, method, params)
	if err != nil {
		return nil, err
	}
	if scope == cdppolicy.NewTarget {
		// The tab is cdpmcp's: closed when it lets go of a person's browser.
		var opened struct {
			TargetID string `json:"targetId"`
		}
		if json.Unmarshal(out, &opened) == nil && opened.TargetID != "" {
			bc.Browser().MarkOpened(opened.TargetID)
		}
	}
	return filterResult(bc, scope, out)
}

// Page sends a raw protocol call to p's own session, confined as Browser
// is.
func Page(ctx context.Context, p *cdpclient.Page, method string, params json.RawMessage, readOnly bool) (json.RawMessage, error) {
	bc := p.Context()
	if scope, err := cdppolicy.Check(method, cdppolicy.Page, readOnly, params); err == nil && scope == cdppolicy.NewTarget {
		// A page session cannot name a context; the browser opens the tab in
		// the caller's.
		return Browser(ctx, bc, method, params, readOnly)
	}
	params, scope, err := confine(ctx, bc, method, cdppolicy.Page, readOnly, params, target.ID(p.TargetID()))
	if err != nil {
		return nil, err
	}
	out, err := p.Raw(ctx, method, params)
	if err != nil {
		return nil, err
	}
	eval.LearnPasswords(ctx, p) // a DOM dump or a script's result can hold them
	return filterResult(bc, scope, out)
}

// confine checks a call against the policy and applies its scope to the
// parameters. self is the calling page's target ("" at browser level).
func confine(ctx context.Context, bc *cdpclient.BrowserContext, method string, level cdppolicy.Level, readOnly bool, params json.RawMessage, self target.ID) (json.RawMessage, cdppolicy.Scope, error) {
	scope, err := cdppolicy.Check(method, level, readOnly, params)
	if err == nil && !bc.Browser().Launched() && bc.ID() == "" {
		err = cdppolicy.CheckPersons(method) // the person's own context
	}
	if err != nil {
		return nil, 0, refusal(err)
	}
	args := map[string]json.RawMessage{}
	if len(params) > 0 && string(params) != "null" {
		if err := json.Unmarshal(params, &args); err != nil {
			return nil, 0, cdpclient.ArgErrorf(`pass params as a JSON object, e.g. {"targetId":"…"}`, "params: %v", err)
		}
	}
	switch scope {
	case cdppolicy.OwnContext:
		if level == cdppolicy.Page {
			delete(args, "browserContextId") // a page's session acts on its own context
			break
		}
		setContextParam(bc, args)
	case cdppolicy.OwnTarget:
		var id target.ID
		if raw, ok := args["targetId"]; ok {
			if err := json.Unmarshal(raw, &id); err != nil {
				return nil, 0, cdpclient.ArgErrorf(`pass targetId as a string`, "targetId: %v", err)
			}
		}
		if id != "" && id != self {
			if err := checkOwnTarget(ctx, bc, method, id); err != nil {
				return nil, 0, err
			}
		}
	case cdppolicy.CheckURL:
		if err := checkURLParam(bc, method, args, false); err != nil {
			return nil, 0, err
		}
	case cdppolicy.NewTarget:
		if err := checkURLParam(bc, method, args, true); err != nil {
			return nil, 0, err
		}
		setContextParam(bc, args)
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
func setContextParam(bc *cdpclient.BrowserContext, args map[string]json.RawMessage) {
	ctxID := bc.ID()
	if ctxID == "" {
		delete(args, "browserContextId")
		return
	}
	id, _ := json.Marshal(ctxID)
	args["browserContextId"] = id
}

// checkURLParam applies the origin rules and the scheme rules to a call's url.
func checkURLParam(bc *cdpclient.BrowserContext, method string, args map[string]json.RawMessage, optional bool) error {
	raw, ok := args["url"]
	if !ok {
		if optional {
			return nil
		}
		return cdpclient.ArgErrorf(`pass url, e.g. {"url":"https://example.com"}`, "%s needs url", method)
	}
	var u string
	if err := json.Unmarshal(raw, &u); err != nil {
		return cdpclient.ArgErrorf(`pass url as a string`, "url: %v", err)
	}
	if err := bc.Browser().Policy().Check(strings.TrimSpace(u)); err != nil {
		return refusal(&cdppolicy.Refusal{Method: method, Why: "its url is refused: " + err.Error()})
	}
	return nil
}

// checkOwnTarget refuses a target of another browser context. Ownership is
// asked of the browser, so workers and frames count as well as tabs.
func checkOwnTarget(ctx context.Context, bc *cdpclient.BrowserContext, method string, id target.ID) error {
	if !ownsTarget(ctx, bc, id) {
		// The same answer for a target that does not exist and one of another
		// session's, so a caller cannot probe for the others' ids.
		return refusal(&cdppolicy.Refusal{Method: method, Why: fmt.Sprintf("target %s is not one of this session's", id)})
	}
	return nil
}

// ownsTarget asks the browser whether the target id belongs to bc: workers
// and frames count as well as tabs; a target that does not exist (or that
// the browser cannot tell of) does not.
func ownsTarget(ctx context.Context, bc *cdpclient.BrowserContext, id target.ID) bool {
	args, err := json.Marshal(target.NewGetTargetInfoArgs().SetTargetID(id))
	if err != nil {
		return false
	}
	out, err := bc.Browser().Raw(ctx, "Target.getTargetInfo", args)
	if err != nil {
		return false
	}
	var r target.GetTargetInfoReply
	return json.Unmarshal(out, &r) == nil && bc.Door().Owns(r.TargetInfo)
}

// filterResult keeps only bc's own targets or contexts in a result.
func filterResult(bc *cdpclient.BrowserContext, scope cdppolicy.Scope, out json.RawMessage) (json.RawMessage, error) {
	d := bc.Door()
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
			if d.Owns(t) {
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
			info := target.Info{BrowserContextID: new(browser.ContextID(id))}
			if d.Owns(info) {
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
	return &cdpclient.Error{Code: cdpclient.CodePermission, Msg: r.Error(), Err: r}
}
