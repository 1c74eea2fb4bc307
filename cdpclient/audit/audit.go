package audit

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/jsfunc"
	"github.com/mafredri/cdp/protocol/runtime"
)

// Severities of findings, from the worst. Accessibility findings use axe-core's
// impact names so results compare directly.
const (
	SeverityCritical = "critical"
	SeveritySerious  = "serious"
	SeverityModerate = "moderate"
	SeverityMinor    = "minor"
)

// SeverityRank orders severities, the worst first (unknown ones last).
func SeverityRank(s string) int {
	switch s {
	case SeverityCritical:
		return 0
	case SeveritySerious:
		return 1
	case SeverityModerate:
		return 2
	case SeverityMinor:
		return 3
	}
	return 4
}

// Finding is one problem an audit found.
type Finding struct {
	// Rule names the check (axe-core's rule ids for accessibility, e.g.
	// "color-contrast"; "header-csp", "broken-link"… for the others).
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	// Msg says what is wrong and, where it helps, how to fix it.
	Msg string `json:"msg"`
	// Ref and Selector name the element, when the finding is about one.
	Ref      string `json:"ref,omitempty"`
	Selector string `json:"selector,omitempty"`
	// HTML is the element's opening tag, cut short.
	HTML string `json:"html,omitempty"`
	// URL is the resource or page the finding is about, when not an element.
	URL string `json:"url,omitempty"`
	// Ratio and Need are a contrast finding's measured and required ratios.
	Ratio float64 `json:"ratio,omitempty"`
	Need  float64 `json:"need,omitempty"`
	// Shot is a picture of the element (JPEG), when one was taken.
	Shot []byte `json:"-"`
	// box is the element's box in the viewport when found: x, y, w, h.
	box [4]float64
}

// SortFindings orders findings by severity, then rule, keeping document order
// within a rule.
func SortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		if a, b := SeverityRank(fs[i].Severity), SeverityRank(fs[j].Severity); a != b {
			return a < b
		}
		return fs[i].Rule < fs[j].Rule
	})
}

//go:embed js/*.js
var jsFiles embed.FS

// jsFuncs are the page functions of js/*.js.
var jsFuncs = jsfunc.Load(jsFiles, "js")

// auditFuncs lists the helper functions of js/*.js, for jsFuncs.With.
func auditFuncs() []string {
	var out []string
	for name := range jsFuncs {
		if strings.HasPrefix(name, "audit") {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// auditJS is an audit page function with every helper of js/*.js in scope.
func auditJS(main string) string {
	var helpers []string
	for _, h := range auditFuncs() {
		if h != main {
			helpers = append(helpers, h)
		}
	}
	return jsFuncs.With(main, helpers...)
}

// arg is a call argument: a JSON value, or a remote object when v is a
// *runtime.RemoteObjectID (nil for null).
func arg(v any) runtime.CallArgument {
	if id, ok := v.(*runtime.RemoteObjectID); ok {
		if id == nil {
			return runtime.CallArgument{Value: json.RawMessage("null")}
		}
		return runtime.CallArgument{ObjectID: id}
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("audit: argument %T does not encode: %v", v, err)) // our own values always encode
	}
	return runtime.CallArgument{Value: b}
}

// call runs fn with args in the world and decodes its value into out.
func call(ctx context.Context, w *cdpclient.World, fn string, out any, args ...runtime.CallArgument) error {
	r, err := w.Client().Runtime.CallFunctionOn(ctx, runtime.NewCallFunctionOnArgs(fn).SetExecutionContextID(w.ID()).
		SetArguments(args).SetReturnByValue(true).SetAwaitPromise(true).SetObjectGroup(w.Group()))
	if err != nil {
		return fmt.Errorf("call in isolated world: %w", err)
	}
	if r.ExceptionDetails != nil {
		return &cdpclient.Error{Code: cdpclient.CodeJSError, Msg: "audit script: " + cdpclient.ExceptionText(r.ExceptionDetails)}
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(r.Result.Value, out); err != nil {
		return fmt.Errorf("decode audit result: %w", err)
	}
	return nil
}

// scopeObject finds the element a scope target names in the world, or nil for
// the whole page.
func scopeObject(ctx context.Context, d cdpclient.Door, w *cdpclient.World, scope cdpclient.Target) (*runtime.RemoteObjectID, error) {
	var expr string
	switch {
	case scope.Ref != "":
		n, _, err := d.Frames().Ref(scope.Ref)
		if err != nil {
			return nil, err
		}
		expr = fmt.Sprintf("__cdpmcp.get(%d)", n)
	case scope.Selector != "":
		b, _ := json.Marshal(scope.Selector)
		expr = "__cdpmcp.query(" + string(b) + ", true)"
	default:
		return nil, nil
	}
	r, err := w.Eval(ctx, expr, false)
	if err != nil {
		if strings.Contains(err.Error(), "SyntaxError") {
			return nil, &cdpclient.ArgError{Msg: fmt.Sprintf("%q is not a valid selector", scope.Selector), Hint: "give a CSS selector such as main or #content"}
		}
		return nil, err
	}
	if r.ObjectID == nil {
		return nil, &cdpclient.Error{Code: cdpclient.CodeNotFound, Msg: "the scope element (" + scope.String() + ") is not on the page",
			Hint: "take a snapshot to find it, or leave scope out to audit the whole page"}
	}
	return r.ObjectID, nil
}

// describedElement is an element as js/audit.js's auditDescribe names it.
type describedElement struct {
	Ref      int        `json:"ref"`
	Selector string     `json:"selector"`
	HTML     string     `json:"html"`
	Text     string     `json:"text"`
	Box      [4]float64 `json:"box"`
}

func (d describedElement) fill(f *Finding) {
	if d.Ref > 0 {
		f.Ref = fmt.Sprint(d.Ref)
	}
	f.Selector, f.HTML, f.box = d.Selector, d.HTML, d.Box
}
