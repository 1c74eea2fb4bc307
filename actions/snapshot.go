package actions

import (
	"context"
	"fmt"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/pagemodel"
	"github.com/cdpmcp/cdpmcp/cdpclient/snapshot"
)

type snapshotArgs struct {
	Ref       Ref    `json:"ref" desc:"scope to this element (e.g. a … line's ref)"`
	Selector  string `json:"selector" desc:"scope to this element"`
	MaxTokens int    `json:"maxTokens"`
	From      int    `json:"from" desc:"continue from this line, as a … line says"`
	Diff      bool   `json:"diff" desc:"only what changed since the last snapshot"`
	Page      string `json:"page"`
}

// Snapshot answers the page as numbered elements (seed 000's format).
var Snapshot = define("snapshot", "The page as numbered elements (N[:]<tag>name</tag>, headings N[:]## and their sections: act by ref=N) and _[:] text, frames and shadow DOM included; menus and long lists summarised in … lines saying how to expand them.",
	ClassRead, Hints{ReadOnly: true, Idempotent: true, OpenWorld: true},
	func(ctx context.Context, env *Env, a snapshotArgs) (*Result, error) {
		if a.MaxTokens < -1 {
			return nil, argErr("give a positive budget, e.g. 4000, or -1 for no limit", "maxTokens %d is negative", a.MaxTokens)
		}
		if a.From < 0 {
			return nil, argErr("from is a line number from a … line, e.g. 812", "from %d is negative", a.From)
		}
		p, err := env.Page(ctx, a.Page)
		if err != nil {
			return nil, err
		}
		scope := cdpclient.Target{Ref: string(a.Ref), Selector: a.Selector}
		text, err := pagemodel.Snapshot(ctx, p, pagemodel.Options{Scope: scope, MaxTokens: a.MaxTokens, From: a.From, Diff: a.Diff})
		if err != nil {
			return nil, err
		}
		return &Result{Text: text}, nil
	}).describe("maxTokens", fmt.Sprintf("token budget (default %d); -1 for all", snapshot.DefaultTokens))
