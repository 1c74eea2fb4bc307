package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/accessibility"
	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/protocol/runtime"
)

// AccessibilityOptions say what Accessibility looks at.
type AccessibilityOptions struct {
	// Scope limits the audit to one element's subtree.
	Scope cdpclient.Target
	// Max bounds the findings (default 500).
	Max int
	// Shots takes a picture of up to this many elements with findings that
	// are in the viewport (for the report); 0 takes none.
	Shots int
}

// AccessibilityReport is what an accessibility audit found.
type AccessibilityReport struct {
	URL      string    `json:"url"`
	Title    string    `json:"title"`
	Findings []Finding `json:"findings"`
	// Truncated says Max findings were reached: there may be more.
	Truncated bool `json:"truncated,omitempty"`
}

// a11ySeverity is each rule's impact as axe-core rates it.
var a11ySeverity = map[string]string{
	"area-alt": SeverityCritical, "button-name": SeverityCritical, "duplicate-id-aria": SeverityCritical,
	"image-alt": SeverityCritical, "input-button-name": SeverityCritical, "input-image-alt": SeverityCritical,
	"label": SeverityCritical, "select-name": SeverityCritical,
	"aria-command-name": SeveritySerious, "aria-dialog-name": SeveritySerious, "aria-hidden-focus": SeveritySerious,
	"aria-input-field-name": SeveritySerious, "aria-meter-name": SeveritySerious, "aria-progressbar-name": SeveritySerious,
	"aria-toggle-field-name": SeveritySerious, "aria-tooltip-name": SeveritySerious, "aria-treeitem-name": SeveritySerious,
	"color-contrast": SeveritySerious, "frame-title": SeveritySerious, "html-has-lang": SeveritySerious,
	"html-lang-valid": SeveritySerious, "link-name": SeveritySerious, "role-img-alt": SeveritySerious,
	"svg-img-alt":   SeveritySerious,
	"heading-order": SeverityModerate,
}

// nameRuleMsg says what each missing-name rule means for a user.
var nameRuleMsg = map[string]string{
	"image-alt":         "image without alt text: add alt=\"what it shows\" (alt=\"\" if it is decoration)",
	"input-image-alt":   "image button without alt text: a screen reader cannot say what it does",
	"area-alt":          "image-map area without alt text",
	"frame-title":       "frame without a title: add title=\"what it holds\"",
	"svg-img-alt":       "SVG image without a name: add <title> or aria-label",
	"role-img-alt":      "role=img element without a name: add aria-label",
	"link-name":         "link without an accessible name: a screen reader says only \"link\"",
	"button-name":       "button without an accessible name: add text or aria-label",
	"input-button-name": "input button without a value or label",
	"select-name":       "drop-down without a label: add <label for> or aria-label",
	"label":             "form field without a label: add <label for> or aria-label",
}

// axNameRoles are the accessibility-tree roles whose nodes must have a name.
var axNameRoles = map[string]bool{
	"link": true, "button": true, "menuitem": true, "menuitemcheckbox": true, "menuitemradio": true,
	"checkbox": true, "radio": true, "switch": true, "option": true, "textbox": true, "searchbox": true,
	"combobox": true, "listbox": true, "slider": true, "spinbutton": true, "treeitem": true, "image": true,
	"img": true, "progressbar": true, "meter": true, "tooltip": true, "dialog": true, "alertdialog": true,
	"Iframe": true, "iframe": true, "PopUpButton": true, "ComboBoxSelect": true,
}

// Accessibility checks the page (or a subtree) for what a screen-reader or
// keyboard user meets: names from the browser's own accessibility tree, and
// contrast, language, headings, aria-hidden focus and duplicate ids from
// computed styles and the DOM in cdpmcp's isolated world.
func Accessibility(ctx context.Context, p *cdpclient.Page, opts AccessibilityOptions) (*AccessibilityReport, error) {
	if opts.Max <= 0 {
		opts.Max = 500
	}
	rep := &AccessibilityReport{URL: p.URL()}
	d := p.Door()
	_, err := d.Run(ctx, cdpclient.ModeLongRead, func(ctx context.Context, _ *cdp.Client) error {
		return d.World(ctx, func(w *cdpclient.World) error {
			rep.Findings = rep.Findings[:0]
			scope, err := scopeObject(ctx, d, w, opts.Scope)
			if err != nil {
				return err
			}
			named, err := auditNames(ctx, w, scope, opts.Max)
			if err != nil {
				return err
			}
			var res struct {
				Findings []struct {
					Rule  string           `json:"rule"`
					El    describedElement `json:"el"`
					Msg   string           `json:"msg"`
					Ratio float64          `json:"ratio"`
					Need  float64          `json:"need"`
				} `json:"findings"`
				Last      int  `json:"last"`
				Truncated bool `json:"truncated"`
			}
			err = w.HandOutRefs(func(base int) (int, error) {
				err := call(ctx, w, auditJS("auditA11y"), &res, arg(base), arg(scope), arg(opts.Max))
				return res.Last, err
			})
			if err != nil {
				return err
			}
			rep.Findings = append(rep.Findings, named...)
			for _, f := range res.Findings {
				fd := Finding{Rule: f.Rule, Severity: a11ySeverity[f.Rule], Msg: f.Msg, Ratio: f.Ratio, Need: f.Need}
				f.El.fill(&fd)
				rep.Findings = append(rep.Findings, fd)
			}
			rep.Truncated = res.Truncated || len(rep.Findings) > opts.Max
			if len(rep.Findings) > opts.Max {
				rep.Findings = rep.Findings[:opts.Max]
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	rep.Title = p.DocumentTitle(ctx)
	SortFindings(rep.Findings)
	if opts.Shots > 0 {
		shootFindings(ctx, d, rep.Findings, opts.Shots)
	}
	return rep, nil
}

// auditNames finds the elements the accessibility tree gives no name though
// their role needs one, and which rule each breaks (js/access.js auditNamed).
func auditNames(ctx context.Context, w *cdpclient.World, scope *runtime.RemoteObjectID, max int) ([]Finding, error) {
	args := accessibility.NewGetFullAXTreeArgs()
	if frame := w.Frame(); frame != "" {
		args.SetFrameID(page.FrameID(frame))
	}
	tree, err := w.Client().Accessibility.GetFullAXTree(ctx, args)
	if err != nil {
		return nil, fmt.Errorf("read the accessibility tree: %w", err)
	}
	var objs []runtime.CallArgument
	var roles []string
	for _, n := range tree.Nodes {
		if n.Ignored || n.BackendDOMNodeID == nil || n.Role == nil || len(objs) >= max {
			continue
		}
		role := axString(n.Role)
		if strings.TrimFunc(axString(n.Name), blank) != "" || !axNameRoles[role] && !axFocusable(n) {
			continue
		}
		r, err := w.Client().DOM.ResolveNode(ctx, dom.NewResolveNodeArgs().SetBackendNodeID(*n.BackendDOMNodeID).
			SetExecutionContextID(w.ID()).SetObjectGroup(w.Group()))
		if err != nil || r.Object.ObjectID == nil {
			continue // gone since the tree was read
		}
		objs = append(objs, runtime.CallArgument{ObjectID: r.Object.ObjectID})
		roles = append(roles, role)
	}
	if len(objs) == 0 {
		return nil, nil
	}
	var res struct {
		Found []*struct {
			Rule string           `json:"rule"`
			El   describedElement `json:"el"`
		} `json:"found"`
		Last int `json:"last"`
	}
	err = w.HandOutRefs(func(base int) (int, error) {
		callArgs := append([]runtime.CallArgument{arg(base), arg(scope), arg(roles)}, objs...)
		err := call(ctx, w, auditJS("auditNamed"), &res, callArgs...)
		return res.Last, err
	})
	if err != nil {
		return nil, err
	}
	var out []Finding
	for _, f := range res.Found {
		if f == nil {
			continue
		}
		msg := nameRuleMsg[f.Rule]
		if msg == "" {
			msg = "element with role " + f.El.HTML + " has no accessible name: add aria-label or aria-labelledby"
		}
		fd := Finding{Rule: f.Rule, Severity: a11ySeverity[f.Rule], Msg: msg}
		f.El.fill(&fd)
		out = append(out, fd)
	}
	return out, nil
}

// axFocusable says the node can take focus: an unnamed one whose role needs
// no name may still break a rule by its element (a link given role=menu).
func axFocusable(n accessibility.AXNode) bool {
	for _, p := range n.Properties {
		if p.Name == accessibility.AXPropertyNameFocusable && string(p.Value.Value) == "true" {
			return true
		}
	}
	return false
}

// blank tells the characters a name made only of says nothing.
func blank(r rune) bool { return unicode.IsSpace(r) || r == '\u200b' || r == '\u00a0' || r == '\ufeff' }

// axString is an AX value's string, or "".
func axString(v *accessibility.AXValue) string {
	if v == nil || len(v.Value) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(v.Value, &s) != nil {
		return ""
	}
	return s
}
