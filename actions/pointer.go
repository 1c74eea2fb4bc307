package actions

import (
	"context"
	"regexp"
	"strconv"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/input"
)

type dragArgs struct {
	targetArgs
	To   Ref    `json:"to" required:"true" desc:"drop target: ref, CSS selector or x,y"`
	Page string `json:"page"`
}

// Drag drags an element onto another element or a point.
var Drag = define("drag", "Drag an element (or its handle) onto an element or a point; says what moved.",
	ClassAct, Hints{Destructive: true, OpenWorld: true},
	func(ctx context.Context, env *Env, a dragArgs) (*Result, error) {
		if err := a.require(); err != nil {
			return nil, err
		}
		if err := require("to", string(a.To), `{"ref":"12","to":"15"}`); err != nil {
			return nil, err
		}
		end := dropTarget(string(a.To))
		return env.onPage(ctx, a.Page, "drag", func(ctx context.Context, p *cdpclient.Page) (*feedback.Feedback, error) {
			return input.Drag(ctx, p, a.target(), end)
		})
	})

var (
	refPattern   = regexp.MustCompile(`^\s*\d+\s*$`)
	pointPattern = regexp.MustCompile(`^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$`)
)

// dropTarget reads a drop target: a ref ("15"), a point ("320,240") or a CSS
// selector (anything else: a selector never looks like either).
func dropTarget(s string) input.DragEnd {
	if refPattern.MatchString(s) {
		return input.DragEnd{Target: cdpclient.Target{Ref: strings.TrimSpace(s)}}
	}
	if m := pointPattern.FindStringSubmatch(s); m != nil {
		x, _ := strconv.ParseFloat(m[1], 64)
		y, _ := strconv.ParseFloat(m[2], 64)
		return input.DragEnd{X: x, Y: y, AtPoint: true}
	}
	return input.DragEnd{Target: cdpclient.Target{Selector: s}}
}

type mouseArgs struct {
	Action string   `json:"action" required:"true" enum:"move,click,dblclick,down,up,wheel,drag"`
	X      *float64 `json:"x" required:"true" desc:"CSS px from viewport left"`
	Y      *float64 `json:"y" required:"true" desc:"CSS px from viewport top"`
	ToX    float64  `json:"toX" desc:"drag end"`
	ToY    float64  `json:"toY" desc:"drag end"`
	DX     float64  `json:"dx" desc:"wheel, px right"`
	DY     float64  `json:"dy" desc:"wheel, px down"`
	Button string   `json:"button" enum:"left,right,middle" desc:"default left"`
	Page   string   `json:"page"`
}

// Mouse acts at viewport coordinates, for canvas apps, maps and games.
var Mouse = define("mouse", "Use the mouse at x,y of the viewport, as a screenshot shows it (canvas, maps, games). down and up may come in separate calls. Feedback names what is under the pointer.",
	ClassAct, Hints{Destructive: true, OpenWorld: true},
	func(ctx context.Context, env *Env, a mouseArgs) (*Result, error) {
		if err := require("action", a.Action, `{"action":"click","x":120,"y":80}`); err != nil {
			return nil, err
		}
		if a.X == nil || a.Y == nil {
			return nil, argErr(`for example {"action":"click","x":120,"y":80}`, "arguments %q and %q are required", "x", "y")
		}
		in := input.MouseInput{Action: a.Action, X: *a.X, Y: *a.Y, ToX: a.ToX, ToY: a.ToY, DX: a.DX, DY: a.DY,
			Button: cdpclient.MouseButton(a.Button)}
		return env.onPage(ctx, a.Page, "mouse", func(ctx context.Context, p *cdpclient.Page) (*feedback.Feedback, error) {
			return input.Mouse(ctx, p, in)
		})
	}).inGroup("vision").describe("action", "what the mouse does")
