package audit

import "strings"

// resources gathers the requests of the page's frames from the trace, with
// the response headers the network domain reported.
func (r *PerformanceReport) resources(evs []traceEvent, t0 float64, frames map[string]bool, navID string, responses map[string]responseInfo) {
	type req struct {
		Resource
		id       string
		blocking bool
	}
	byID := map[string]*req{}
	var order []*req
	for i := range evs {
		e := &evs[i]
		if !strings.HasPrefix(e.Name, "Resource") {
			continue
		}
		d := e.data()
		q := byID[d.RequestID]
		switch e.Name {
		case "ResourceSendRequest":
			if q != nil || e.TS < t0 || !frames[d.Frame] || strings.HasPrefix(d.URL, "data:") {
				continue
			}
			q = &req{Resource: Resource{URL: d.URL, Type: d.ResourceType, Start: (e.TS - t0) / 1000}, id: d.RequestID, blocking: d.RenderBlocking == "blocking"}
			byID[d.RequestID] = q
			order = append(order, q)
		case "ResourceReceiveResponse":
			if q == nil {
				continue
			}
			q.Status, q.Cached = d.StatusCode, d.FromCache
			if q.Type == "" || q.Type == "Other" {
				q.Type = mimeType(d.MimeType)
			}
			if d.RequestID == navID && d.Timing != nil && r.Metrics.TTFB == nil {
				r.Metrics.TTFB = ms(d.Timing.RequestTime*1000 + d.Timing.ReceiveHeadersEnd - t0/1000)
			}
		case "ResourceFinish":
			if q == nil {
				continue
			}
			q.Bytes, q.Body = int64(d.Encoded), int64(d.Decoded)
			if d.FinishTime > 0 {
				q.End = d.FinishTime*1000 - t0/1000
			} else {
				q.End = (e.TS - t0) / 1000
			}
		}
	}
	r.Requests.ByType = map[string]*TypeTotal{}
	for _, q := range order {
		if q.End < q.Start {
			q.End = q.Start
		}
		r.Requests.Count++
		r.Requests.Bytes += q.Bytes
		t := r.Requests.ByType[q.Type]
		if t == nil {
			t = &TypeTotal{}
			r.Requests.ByType[q.Type] = t
		}
		t.Count++
		t.Bytes += q.Bytes
		r.Timeline = append(r.Timeline, q.Resource)
		if q.blocking && (r.Metrics.FCP == nil || q.Start < *r.Metrics.FCP) {
			r.Blocking = append(r.Blocking, q.Resource)
		}
		h, ok := responses[q.id]
		if !ok || q.Cached || q.Status != 200 {
			continue
		}
		if textual(h.MIME) && h.ContentEncoding == "" && q.Body >= 1400 {
			r.Uncompressed = append(r.Uncompressed, q.Resource)
		}
		if staticType(q.Type) {
			if ok, why := cacheable(h.CacheControl, h.Expires); !ok {
				res := q.Resource
				res.Note = why
				r.Uncached = append(r.Uncached, res)
			}
		}
	}
	r.Largest = top(r.Timeline, 5)
}

func textual(mime string) bool {
	return strings.HasPrefix(mime, "text/") || strings.Contains(mime, "javascript") || strings.Contains(mime, "json") ||
		strings.Contains(mime, "xml") || strings.Contains(mime, "svg")
}

func staticType(t string) bool {
	switch t {
	case "Script", "Stylesheet", "Image", "Font", "Media":
		return true
	}
	return false
}

func mimeType(mime string) string {
	switch {
	case strings.HasPrefix(mime, "image/"):
		return "Image"
	case strings.Contains(mime, "javascript"):
		return "Script"
	case mime == "text/css":
		return "Stylesheet"
	case strings.HasPrefix(mime, "font/"):
		return "Font"
	}
	return "Other"
}
