package replay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/actions"
	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/locate"
	"github.com/cdpmcp/cdpmcp/internal/poll"
	"github.com/cdpmcp/cdpmcp/learned"
)

// pollEvery is how often a replay looks again for an element or an outcome.
const pollEvery = 100 * time.Millisecond

// step runs one step: finds its element, acts through the catalogue, checks
// what it led to. text is what an extract step read. A step that did not go
// as learned is a mismatch; the error is only ctx's.
func (r *replayer) step(ctx context.Context, st *learned.Step) (text string, miss *mismatch, err error) {
	p, err := r.env.Page(ctx, "")
	if err != nil {
		return "", &mismatch{looked: "the tab", found: err.Error(), hard: true}, ctx.Err()
	}
	ref := ""
	if st.Target != nil && st.Action != learned.Navigate && st.Action != learned.Extract {
		var gone bool
		ref, gone, miss = r.find(ctx, p, *st.Target)
		if ctx.Err() != nil {
			return "", nil, ctx.Err()
		}
		if gone && st.Action == learned.Wait && (st.State == "hidden" || st.State == "detached") {
			return "", nil, nil // what it waited to go is gone
		}
		if miss != nil {
			return "", miss, nil
		}
	}
	name, args := r.call(st, ref)
	res, err := r.act(ctx, name, args)
	if ctx.Err() != nil {
		return "", nil, ctx.Err()
	}
	if err != nil {
		c := cdpclient.Classify(err)
		return "", &mismatch{looked: "to " + st.Describe(), found: c.Msg, code: c.Code, hard: hardFailure(err)}, nil
	}
	// A step that happened only in part (typed text whose submit the
	// browser refused, a page left mid-way) did not go as it did when the
	// script was learned: a step is learned only when it went whole.
	if fb := res.Feedback; fb != nil && (!fb.OK || fb.Incomplete != "") {
		found := fb.Msg
		if fb.OK {
			found = fb.Incomplete
		}
		if fb.Hint != "" {
			found += " (" + fb.Hint + ")"
		}
		return "", &mismatch{looked: "to " + st.Describe(), found: found, code: cdpclient.Code(fb.Code), hard: fb.Code == int(cdpclient.CodePermission)}, nil
	}
	// A page the server answered with an error is not the page the script
	// was learned on: what follows would fail on its error page.
	if fb := res.Feedback; st.Action == learned.Navigate && fb != nil && fb.Delta != nil && fb.Delta.Status >= 400 {
		return "", &mismatch{looked: "to " + st.Describe(), found: fmt.Sprintf("the server answered HTTP %d (its error page)", fb.Delta.Status),
			code: cdpclient.CodeNetworkError}, nil
	}
	if st.Expect != nil {
		if miss := r.expect(ctx, p, st.Expect); miss != nil {
			miss.acted = true
			return "", miss, ctx.Err()
		}
	}
	return res.Text, nil, nil
}

// call is the catalogue action a step runs and its arguments.
func (r *replayer) call(st *learned.Step, ref string) (string, map[string]any) {
	x := r.v.Expand
	withRef := func(m map[string]any) map[string]any {
		if ref != "" {
			m["ref"] = ref
		}
		return m
	}
	switch st.Action {
	case learned.Navigate:
		return "navigate", map[string]any{"url": x(st.URL)}
	case learned.Click:
		m := withRef(map[string]any{})
		if st.ClickCount > 1 {
			m["clickCount"] = st.ClickCount
		}
		if len(st.Modifiers) > 0 {
			m["modifiers"] = st.Modifiers
		}
		return "click", m
	case learned.Fill:
		// fillForm sets every kind of field as a person would: text, a
		// check box (true/false), an option, a date.
		return "fillForm", map[string]any{"fields": []any{withRef(map[string]any{"value": x(st.Value)})}}
	case learned.Type:
		return "type", withRef(map[string]any{"text": x(st.Value), "clear": st.Clear, "submit": st.Submit})
	case learned.Select:
		vals := make([]string, len(st.Values))
		for i, v := range st.Values {
			vals[i] = x(v)
		}
		return "selectOption", withRef(map[string]any{"values": vals})
	case learned.Press:
		return "pressKey", withRef(map[string]any{"key": st.Key})
	case learned.Upload:
		files := make([]string, len(st.Files))
		for i, f := range st.Files {
			files[i] = x(f)
		}
		return "uploadFile", withRef(map[string]any{"paths": files})
	case learned.Wait:
		m := withRef(map[string]any{"timeoutMs": r.opts.ExpectTimeout.Milliseconds()})
		if st.Text != "" && ref == "" {
			m["text"] = x(st.Text)
		}
		if st.State != "" {
			m["state"] = st.State
		}
		return "waitFor", m
	default: // extract
		m := map[string]any{}
		if st.Selector != "" {
			m["selector"] = st.Selector
		}
		if st.Format != "" {
			m["format"] = st.Format
		}
		return "getContent", m
	}
}

// act runs a catalogue action under the step's deadline (or its own).
func (r *replayer) act(ctx context.Context, name string, args map[string]any) (*actions.Result, error) {
	a := actions.ByName(name)
	if !a.AllowedIn(r.env.ReadOnly) {
		return nil, &cdpclient.Error{Code: cdpclient.CodePermission, Msg: "read-only mode refused " + name + ": a script that acts on pages cannot be replayed there",
			Hint: "replay it on a server without --read-only"}
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	if !a.OwnTimeout {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.opts.StepTimeout)
		defer cancel()
	}
	return a.Run(ctx, r.env, raw)
}

// find waits up to FindTimeout for the one element d names and answers its
// ref; gone says none was there at the end.
func (r *replayer) find(ctx context.Context, p *cdpclient.Page, d locate.Description) (ref string, gone bool, miss *mismatch) {
	fctx, cancel := context.WithTimeout(ctx, r.opts.FindTimeout)
	defer cancel()
	var (
		last    *locate.NoMatchError
		other   error
		matched locate.Match
	)
	_ = poll.Until(fctx, pollEvery, func() (bool, error) {
		m, err := locate.Find(fctx, p, d)
		var nm *locate.NoMatchError
		switch {
		case err == nil:
			matched, other = m, nil
			return true, nil
		case errors.As(err, &nm):
			last = nm
			return false, nil
		case fctx.Err() != nil:
			return false, err
		}
		other = err
		return false, err
	})
	switch {
	case matched.Ref != "":
		return matched.Ref, false, nil
	case last != nil:
		return "", last.Count == 0, &mismatch{looked: d.String(), found: foundText(last)}
	case other != nil:
		c := cdpclient.Classify(other)
		return "", false, &mismatch{looked: d.String(), found: c.Msg, code: c.Code, hard: hardFailure(other)}
	}
	return "", false, &mismatch{looked: d.String(), found: "nothing before the step's time ran out"}
}

// foundText says what there was instead of the one element looked for.
func foundText(e *locate.NoMatchError) string {
	list := strings.Join(e.Found, ", ")
	if e.More > 0 {
		list += fmt.Sprintf(" and %d more", e.More)
	}
	if e.Count > 1 {
		return fmt.Sprintf("%d elements that match, and nothing tells them apart: %s", e.Count, list)
	}
	if list == "" {
		return "no such element, and none of its kind"
	}
	return "no such element; of its kind the page shows " + list
}

// expect waits up to ExpectTimeout for what a step led to.
func (r *replayer) expect(ctx context.Context, p *cdpclient.Page, e *learned.Expect) *mismatch {
	ectx, cancel := context.WithTimeout(ctx, r.opts.ExpectTimeout)
	defer cancel()
	want := learned.Expect{URL: r.v.Expand(e.URL), Title: e.Title, Text: r.v.Expand(e.Text)}
	var found []string
	_ = poll.Until(ectx, pollEvery, func() (bool, error) {
		var now []string
		if want.URL != "" && !learned.SamePage(want.URL, p.URL()) {
			now = append(now, "the address "+p.URL())
		}
		if want.Title != "" {
			if t := p.DocumentTitle(ectx); !sameTitle(want.Title, t) {
				now = append(now, fmt.Sprintf("the title %q", t))
			}
		}
		if want.Text != "" {
			if ok, err := locate.HasText(ectx, p, want.Text); err != nil || !ok {
				now = append(now, fmt.Sprintf("no text %q", want.Text))
			}
		}
		// A look the deadline cut short read nothing sure (a title read
		// then is the browser's stand-in, the address): the one before says
		// what there was.
		if len(now) == 0 || ectx.Err() == nil || found == nil {
			found = now
		}
		return len(now) == 0, nil
	})
	if len(found) == 0 {
		return nil
	}
	return &mismatch{looked: expectText(want), found: strings.Join(found, ", ")}
}

// expectText says what a step should lead to.
func expectText(e learned.Expect) string {
	var parts []string
	if e.URL != "" {
		parts = append(parts, "the address "+e.URL)
	}
	if e.Title != "" {
		parts = append(parts, fmt.Sprintf("the title %q", e.Title))
	}
	if e.Text != "" {
		parts = append(parts, fmt.Sprintf("the text %q", e.Text))
	}
	return strings.Join(parts, ", ")
}

var digits = regexp.MustCompile(`\d+`)

// sameTitle compares titles with white space and case folded and any
// number matching any (an order's number in its title).
func sameTitle(want, got string) bool {
	f := func(s string) string {
		return digits.ReplaceAllString(strings.ToLower(strings.Join(strings.Fields(s), " ")), "#")
	}
	return f(want) == f(got)
}
