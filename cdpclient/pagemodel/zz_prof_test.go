package pagemodel

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/debugger"
	"github.com/mafredri/cdp/protocol/profiler"
	"github.com/mafredri/cdp/protocol/runtime"
)

func TestZZProfileWalk(t *testing.T) {
	path := os.Getenv("PROF_PAGE")
	if path == "" {
		t.Skip()
	}
	p := newTestPage(t)
	ctx := testContext(t)
	if err := outcome(p.Navigate(ctx, cdptest.Site.URL(path), cdpclient.WaitLoad)); err != nil {
		t.Fatal(err)
	}
	Snapshot(ctx, p, Options{})
	var prof *profiler.Profile
	p.Door().Run(ctx, cdpclient.ModeRead, func(ctx context.Context, c *cdp.Client) error {
		c.Debugger.Enable(ctx, debugger.NewEnableArgs())
		c.Profiler.Enable(ctx)
		c.Profiler.SetSamplingInterval(ctx, profiler.NewSetSamplingIntervalArgs(50))
		return c.Profiler.Start(ctx)
	})
	for i := 0; i < 30; i++ {
		if _, err := Snapshot(ctx, p, Options{}); err != nil {
			t.Fatal(err)
		}
	}
	srcs := map[runtime.ScriptID][]string{}
	p.Door().Run(ctx, cdpclient.ModeRead, func(ctx context.Context, c *cdp.Client) error {
		r, err := c.Profiler.Stop(ctx)
		prof = &r.Profile
		for _, n := range prof.Nodes {
			id := n.CallFrame.ScriptID
			if _, ok := srcs[id]; ok || id == "0" {
				continue
			}
			s, err := c.Debugger.GetScriptSource(ctx, debugger.NewGetScriptSourceArgs(id))
			if err == nil {
				srcs[id] = strings.Split(s.ScriptSource, "\n")
			} else {
				srcs[id] = nil
			}
		}
		return err
	})
	lines := map[string]int{}
	total := 0
	for _, n := range prof.Nodes {
		for _, pt := range n.PositionTicks {
			src := srcs[n.CallFrame.ScriptID]
			text := ""
			if pt.Line-1 < len(src) {
				text = strings.TrimSpace(src[pt.Line-1])
				if len(text) > 110 {
					text = text[:110]
				}
			}
			lines[fmt.Sprintf("%s@%d: %s", n.CallFrame.FunctionName, pt.Line, text)] += pt.Ticks
			total += pt.Ticks
		}
	}
	type kv struct {
		k string
		v int
	}
	var l []kv
	for k, v := range lines {
		l = append(l, kv{k, v})
	}
	sort.Slice(l, func(i, j int) bool { return l[i].v > l[j].v })
	for i := 0; i < 40 && i < len(l); i++ {
		t.Logf("%5.1f%% %s", 100*float64(l[i].v)/float64(total), l[i].k)
	}
}
