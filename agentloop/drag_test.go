package agentloop

import (
	"encoding/json"
	"fmt"
	"testing"
)

// drag_drop moves a card of an HTML5 board onto another column's card, and
// onto a point of the screenshot.
func TestDragDropFunction(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	r := &runner{env: env, cfg: Config{}.withDefaults()}
	ctx := testCtx(t)
	obs, err := r.observe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sc := &stepCtx{run: r, refs: obs.refs, tabs: obs.tabIDs}
	if rec, _, err := sc.execute(ctx, Call{Name: "go_to_url", Args: json.RawMessage(`{"url": "` + site.URL("/parity/board.html") + `"}`)}); err != nil || rec.Error != "" {
		t.Fatalf("go_to_url: %v %s", err, rec.Error)
	}
	for _, tc := range []struct{ args, want string }{
		{`{"index": %d, "target_index": %d}`, "Fix login moved to Doing"},
		{`{"index": %d, "x": 480, "y": 150}`, "Write tests moved to Done"},
	} {
		obs, err := r.observe(ctx)
		if err != nil {
			t.Fatal(err)
		}
		list := "6. Interactive elements:\n" + obs.elements
		var args string
		if tc.want == "Fix login moved to Doing" {
			args = fmt.Sprintf(tc.args, refOf(t, list, "Fix login"), refOf(t, list, "Review PR"))
		} else {
			args = fmt.Sprintf(tc.args, refOf(t, list, "Write tests"))
		}
		sc := &stepCtx{run: r, refs: obs.refs, tabs: obs.tabIDs}
		rec, _, err := sc.execute(ctx, Call{Name: "drag_drop", Args: json.RawMessage(args)})
		if err != nil || rec.Error != "" {
			t.Fatalf("drag_drop %s: %v %s", args, err, rec.Error)
		}
		if got := evalOn(t, env, "document.getElementById('log').textContent"); got != `"`+tc.want+`"` {
			t.Errorf("drag_drop %s: board says %s (result %s)", args, got, rec.Result)
		}
	}
	sc = &stepCtx{run: r, refs: obs.refs, tabs: obs.tabIDs}
	if rec, _, _ := sc.execute(ctx, Call{Name: "drag_drop", Args: json.RawMessage(`{"index": 1}`)}); rec.Error == "" {
		t.Error("drag_drop without a target ran")
	}
}
