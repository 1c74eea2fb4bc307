package audit

import (
	"context"
	"strconv"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/runtime"
)

// timelineResult is what js/perf.js auditTimeline reads.
type timelineResult struct {
	URL        string   `json:"url"`
	Status     int      `json:"status"`
	TTFB       *float64 `json:"ttfb"`
	FCP        *float64 `json:"fcp"`
	LCP        *float64 `json:"lcp"`
	CLS        *float64 `json:"cls"`
	INP        *float64 `json:"inp"`
	Load       *float64 `json:"load"`
	LCPElement *struct {
		Kind string            `json:"kind"`
		URL  string            `json:"url"`
		Size int               `json:"size"`
		El   *describedElement `json:"el"`
	} `json:"lcpElement"`
	Shifts []struct {
		At       float64            `json:"at"`
		Score    float64            `json:"score"`
		Elements []describedElement `json:"elements"`
	} `json:"shifts"`
	Tasks     []Task `json:"tasks"`
	Resources []struct {
		URL      string  `json:"url"`
		Type     string  `json:"type"`
		Bytes    int64   `json:"bytes"`
		Body     int64   `json:"body"`
		Encoded  int64   `json:"encoded"`
		Start    float64 `json:"start"`
		End      float64 `json:"end"`
		Status   int     `json:"status"`
		Blocking bool    `json:"blocking"`
	} `json:"resources"`
	Last int `json:"last"`
}

// timelinePerformance measures the current page from its own performance
// timeline, read in cdpmcp's isolated world: nothing is loaded again. Headers
// are not visible there, so caching goes unjudged; compression is judged from
// the encoded and decoded body sizes.
func timelinePerformance(ctx context.Context, p *cdpclient.Page) (*PerformanceReport, error) {
	var res timelineResult
	d := p.Door()
	_, err := d.Run(ctx, cdpclient.ModeRead, func(ctx context.Context, _ *cdp.Client) error {
		return d.World(ctx, func(w *cdpclient.World) error {
			return w.HandOutRefs(func(base int) (int, error) {
				err := call(ctx, w, auditJS("auditTimeline"), &res, arg(base))
				return res.Last, err
			})
		})
	})
	if err != nil {
		return nil, err
	}
	rep := &PerformanceReport{URL: p.URL(), Throttle: "none", Source: "timeline", Status: res.Status}
	if res.Status < 400 {
		rep.Status = 0
	}
	rep.Metrics = Metrics{TTFB: res.TTFB, FCP: res.FCP, LCP: res.LCP, CLS: res.CLS, INP: res.INP, Load: res.Load}
	if l := res.LCPElement; l != nil {
		rep.LCP = &NamedElement{Kind: l.Kind, URL: l.URL, Size: l.Size}
		if l.El != nil {
			rep.LCP.Ref, rep.LCP.Selector, rep.LCP.HTML = refString(l.El.Ref), l.El.Selector, l.El.HTML
		}
	}
	for _, s := range res.Shifts {
		sh := Shift{At: s.At, Score: s.Score}
		for _, e := range s.Elements {
			sh.Elements = append(sh.Elements, NamedElement{Ref: refString(e.Ref), Selector: e.Selector, HTML: e.HTML})
		}
		rep.Shifts = append(rep.Shifts, sh)
	}
	var tbt float64
	for _, t := range res.Tasks {
		rep.LongTasks = append(rep.LongTasks, t)
		if rep.Metrics.FCP != nil {
			if b := min(t.Duration, t.At+t.Duration-*rep.Metrics.FCP) - 50; b > 0 {
				tbt += b
			}
		}
	}
	if rep.Metrics.FCP != nil {
		rep.Metrics.TBT = ms(tbt)
	}
	rep.Requests.ByType = map[string]*TypeTotal{}
	for _, r := range res.Resources {
		res := Resource{URL: r.URL, Type: initiatorType(r.Type, r.URL), Status: r.Status, Bytes: r.Bytes, Body: r.Body, Start: r.Start, End: r.End, Cached: r.Bytes == 0 && r.Body > 0}
		rep.Requests.Count++
		rep.Requests.Bytes += r.Bytes
		t := rep.Requests.ByType[res.Type]
		if t == nil {
			t = &TypeTotal{}
			rep.Requests.ByType[res.Type] = t
		}
		t.Count++
		t.Bytes += r.Bytes
		rep.Timeline = append(rep.Timeline, res)
		if r.Blocking {
			rep.Blocking = append(rep.Blocking, res)
		}
		if !res.Cached && r.Encoded > 0 && r.Encoded == r.Body && r.Body >= 1400 && textualType(res.Type) {
			rep.Uncompressed = append(rep.Uncompressed, res)
		}
	}
	rep.Largest = top(rep.Timeline, 5)
	rep.findings()
	return rep, nil
}

// initiatorType maps resource timing's initiatorType to the trace's types.
func initiatorType(t, url string) string {
	switch t {
	case "script":
		return "Script"
	case "css":
		return "Stylesheet"
	case "img", "image":
		return "Image"
	case "fetch":
		return "Fetch"
	case "xmlhttprequest":
		return "XHR"
	case "link":
		if strings.HasSuffix(strings.SplitN(url, "?", 2)[0], ".css") {
			return "Stylesheet"
		}
		return "Other"
	case "video", "audio":
		return "Media"
	}
	return "Other"
}

func textualType(t string) bool {
	return t == "Script" || t == "Stylesheet" || t == "Fetch" || t == "XHR"
}

func refString(n int) string {
	if n <= 0 {
		return ""
	}
	return strconv.Itoa(n)
}

// nameNodes names main-frame nodes by their backend ids (from a trace): ref,
// selector and opening tag, for the nodes that still exist.
func nameNodes(ctx context.Context, d cdpclient.Door, ids []int) map[int]NamedElement {
	out := map[int]NamedElement{}
	_, _ = d.Run(ctx, cdpclient.ModeRead, func(ctx context.Context, _ *cdp.Client) error {
		return d.World(ctx, func(w *cdpclient.World) error {
			var objs []runtime.CallArgument
			var kept []int
			for _, id := range ids {
				r, err := w.Client().DOM.ResolveNode(ctx, dom.NewResolveNodeArgs().SetBackendNodeID(dom.BackendNodeID(id)).
					SetExecutionContextID(w.ID()).SetObjectGroup(w.Group()))
				if err != nil || r.Object.ObjectID == nil {
					continue
				}
				objs = append(objs, runtime.CallArgument{ObjectID: r.Object.ObjectID})
				kept = append(kept, id)
			}
			if len(objs) == 0 {
				return nil
			}
			var res struct {
				Found []*describedElement `json:"found"`
				Last  int                 `json:"last"`
			}
			err := w.HandOutRefs(func(base int) (int, error) {
				err := call(ctx, w, auditJS("auditDescribeAll"), &res, append([]runtime.CallArgument{arg(base)}, objs...)...)
				return res.Last, err
			})
			if err != nil {
				return err
			}
			for i, d := range res.Found {
				if d != nil && i < len(kept) {
					out[kept[i]] = NamedElement{Ref: refString(d.Ref), Selector: d.Selector, HTML: d.HTML}
				}
			}
			return nil
		})
	})
	return out
}
