package actions

import (
	"context"
	"fmt"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/snapshot"
)

type snapshotArgs struct {
	Ref       Ref    `json:"ref" desc:"only this element's subtree"`
	Selector  string `json:"selector" desc:"only this element's subtree"`
	MaxTokens int    `json:"maxTokens"`
	Diff      bool   `json:"diff" desc:"only what changed since the last snapshot"`
	Page      string `json:"page"`
}

// Snapshot answers the page as numbered elements (seed 000's format).
var Snapshot = define("snapshot", "The page as numbered elements: N[:]<tag attrs>name</tag> lines you can act on by ref=N, and _[:] context lines (frames and shadow DOM included). Refs stay valid while the element lives.",
	ClassRead, Hints{ReadOnly: true, Idempotent: true, OpenWorld: true},
	func(ctx context.Context, env *Env, a snapshotArgs) (*Result, error) {
		if a.MaxTokens < 0 {
			return nil, argErr("give a positive budget, e.g. 4000", "maxTokens %d is negative", a.MaxTokens)
		}
		p, err := env.Page(ctx, a.Page)
		if err != nil {
			return nil, err
		}
		scope := cdpclient.Target{Ref: string(a.Ref), Selector: a.Selector}
		text, err := p.Snapshot(ctx, cdpclient.SnapshotOptions{Scope: scope, MaxTokens: a.MaxTokens, Diff: a.Diff})
		if err != nil {
			return nil, err
		}
		return &Result{Text: text}, nil
	}).describe("maxTokens", fmt.Sprintf("token budget (default: all elements, about %d in all); text is left out first, marked with …", snapshot.DefaultTokens))
