package audit

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// traceEvent is the part of a Chrome trace event the analysis reads.
type traceEvent struct {
	Name string  `json:"name"`
	Cat  string  `json:"cat"`
	Ph   string  `json:"ph"`
	TS   float64 `json:"ts"`  // µs
	Dur  float64 `json:"dur"` // µs
	PID  int     `json:"pid"`
	TID  int     `json:"tid"`
	Args struct {
		Frame string          `json:"frame"`
		Data  json.RawMessage `json:"data"`
	} `json:"args"`
}

// traceData is the union of the args.data fields the analysis reads.
type traceData struct {
	NavigationID       string  `json:"navigationId"`
	IsLoadingMainFrame bool    `json:"isLoadingMainFrame"`
	DocumentLoaderURL  string  `json:"documentLoaderURL"`
	NodeID             int     `json:"nodeId"`
	Size               int     `json:"size"`
	Type               string  `json:"type"`
	ImageURL           string  `json:"imageUrl"`
	CandidateIndex     int     `json:"candidateIndex"`
	WeightedScore      float64 `json:"weighted_score_delta"`
	HadRecentInput     bool    `json:"had_recent_input"`
	ImpactedNodes      []struct {
		NodeID int `json:"node_id"`
	} `json:"impacted_nodes"`
	RequestID      string  `json:"requestId"`
	URL            string  `json:"url"`
	Frame          string  `json:"frame"`
	Parent         string  `json:"parent"`
	ResourceType   string  `json:"resourceType"`
	RenderBlocking string  `json:"renderBlocking"`
	StatusCode     int     `json:"statusCode"`
	MimeType       string  `json:"mimeType"`
	Encoded        float64 `json:"encodedDataLength"`
	Decoded        float64 `json:"decodedBodyLength"`
	FromCache      bool    `json:"fromCache"`
	FinishTime     float64 `json:"finishTime"` // s
	DidFail        bool    `json:"didFail"`
	Timing         *struct {
		RequestTime        float64 `json:"requestTime"` // s
		ReceiveHeadersEnd  float64 `json:"receiveHeadersEnd"`
		ReceiveHeadersStrt float64 `json:"receiveHeadersStart"`
	} `json:"timing"`
}

func (e *traceEvent) data() traceData {
	var d traceData
	_ = json.Unmarshal(e.Args.Data, &d)
	return d
}

// analyseTrace measures the last main-frame navigation of frame in a trace, as
// Lighthouse reads a trace: navigationStart, the paint events, the LCP
// candidates, layout shifts in session windows, long tasks on the renderer's
// main thread and the resource events.
func analyseTrace(raw []byte, frame string, responses map[string]responseInfo) (*PerformanceReport, error) {
	var doc struct {
		TraceEvents []traceEvent `json:"traceEvents"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		var list []traceEvent // the older array form
		if err2 := json.Unmarshal(raw, &list); err2 != nil {
			return nil, fmt.Errorf("read trace: %w", err)
		}
		doc.TraceEvents = list
	}
	evs := doc.TraceEvents
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].TS < evs[j].TS })
	rep := &PerformanceReport{shiftNode: map[int][]int{}}
	var nav *traceEvent
	var navID string
	for i := range evs {
		e := &evs[i]
		if e.Name != "navigationStart" || e.Args.Frame != frame {
			continue
		}
		d := e.data()
		if d.IsLoadingMainFrame && d.DocumentLoaderURL != "" && !strings.HasPrefix(d.DocumentLoaderURL, "about:") {
			nav, navID = e, d.NavigationID
		}
	}
	if nav == nil {
		return nil, fmt.Errorf("the trace holds no navigation of the page")
	}
	t0 := nav.TS
	rel := func(ts float64) float64 { return (ts - t0) / 1000 }
	frames := map[string]bool{frame: true}
	var lcp *traceEvent
	var lcpData traceData
	var shifts []traceEvent
	var end float64
	for i := range evs {
		e := &evs[i]
		if e.TS < t0 {
			continue
		}
		end = max(end, e.TS+e.Dur)
		switch e.Name {
		case "FrameCommittedInBrowser", "FrameStartedLoading":
			if d := e.data(); d.Parent != "" && frames[d.Parent] {
				frames[d.Frame] = true
			}
		case "firstContentfulPaint":
			if d := e.data(); e.Args.Frame == frame && (navID == "" || d.NavigationID == navID) && rep.Metrics.FCP == nil {
				rep.Metrics.FCP = ms(rel(e.TS))
			}
		case "largestContentfulPaint::Candidate":
			if d := e.data(); e.Args.Frame == frame && (navID == "" || d.NavigationID == navID) {
				lcp, lcpData = e, d
			}
		case "largestContentfulPaint::Invalidate":
			if e.Args.Frame == frame {
				lcp = nil
			}
		case "LayoutShift":
			if d := e.data(); frames[e.Args.Frame] && !d.HadRecentInput {
				shifts = append(shifts, *e)
			}
		case "MarkLoad":
			if e.Args.Frame == frame && rep.Metrics.Load == nil {
				rep.Metrics.Load = ms(rel(e.TS))
			}
		}
	}
	if lcp != nil {
		rep.Metrics.LCP = ms(rel(lcp.TS))
		rep.LCP = &NamedElement{Kind: lcpData.Type, URL: lcpData.ImageURL, Size: lcpData.Size}
		rep.lcpNode = lcpData.NodeID
	}
	rep.Metrics.CLS = ms(rep.sessionWindows(shifts, rel))
	rep.longTasks(evs, nav, rel, end)
	rep.resources(evs, t0, frames, navID, responses)
	return rep, nil
}

// sessionWindows sums layout shifts in session windows (a gap of over 1 s or
// a window over 5 s starts a new one) and keeps the worst window's shifts.
func (r *PerformanceReport) sessionWindows(shifts []traceEvent, rel func(float64) float64) float64 {
	var best, cur float64
	var bestStart, curStart, last float64
	bestIdx, curIdx := []int{}, []int{}
	for i := range shifts {
		t := rel(shifts[i].TS)
		if i == 0 || t-last > 1000 || t-curStart > 5000 {
			cur, curStart, curIdx = 0, t, nil
		}
		cur += shifts[i].data().WeightedScore
		curIdx = append(curIdx, i)
		last = t
		if cur > best {
			best, bestStart, bestIdx = cur, curStart, append([]int(nil), curIdx...)
		}
	}
	_ = bestStart
	for _, i := range bestIdx {
		d := shifts[i].data()
		r.Shifts = append(r.Shifts, Shift{At: rel(shifts[i].TS), Score: d.WeightedScore})
		for _, n := range d.ImpactedNodes {
			if n.NodeID > 0 && len(r.shiftNode[len(r.Shifts)-1]) < 5 {
				r.shiftNode[len(r.Shifts)-1] = append(r.shiftNode[len(r.Shifts)-1], n.NodeID)
			}
		}
	}
	return best
}

// longTasks finds the renderer main thread's tasks over 50 ms after the
// navigation, and the total blocking time after first contentful paint.
func (r *PerformanceReport) longTasks(evs []traceEvent, nav *traceEvent, rel func(float64) float64, end float64) {
	var tbt float64
	fcp := 0.0
	if r.Metrics.FCP != nil {
		fcp = *r.Metrics.FCP
	}
	for i := range evs {
		e := &evs[i]
		if e.Name != "RunTask" || e.Ph != "X" || e.PID != nav.PID || e.TID != nav.TID || e.TS < nav.TS || e.Dur < 50000 {
			continue
		}
		at, dur := rel(e.TS), e.Dur/1000
		r.LongTasks = append(r.LongTasks, Task{At: at, Duration: dur})
		// The part of the task after FCP that exceeds 50 ms blocks input.
		if blocked := min(dur, at+dur-fcp) - 50; blocked > 0 && r.Metrics.FCP != nil {
			tbt += blocked
		}
	}
	if r.Metrics.FCP != nil {
		r.Metrics.TBT = ms(tbt)
	}
}
