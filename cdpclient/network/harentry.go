package network

import (
	"net/url"
	"sort"
	"strings"
)

// response records what the response said (status, headers, timing).
func (q *harReq) response(resp harResponse, at float64) {
	q.respAt = at
	q.timing = resp.Timing
	e := &q.entry
	e.Response.Status = resp.Status
	e.Response.StatusText = resp.StatusText
	e.Response.Headers = harHeaders(resp.Headers)
	e.Response.HTTPVersion = httpVersion(resp.Protocol)
	e.Request.HTTPVersion = e.Response.HTTPVersion
	e.Response.Content.MimeType = resp.MimeType
	e.ServerIP = strings.Trim(resp.RemoteIPAddress, "[]")
}

// finish computes the entry's timings once its last byte (or failure) is in.
func (q *harReq) finish(end float64, failure string) {
	q.done = true
	e := &q.entry
	e.Error = failure
	e.Response.Content.Size = q.size
	total := (end - q.t0) * 1000
	if t := q.timing; t != nil && t.RequestTime > 0 {
		span := func(a, b float64) float64 {
			if a < 0 || b < 0 {
				return -1
			}
			return round3(b - a)
		}
		first := t.SendStart
		for _, v := range []float64{t.ConnectStart, t.DNSStart} {
			if v >= 0 {
				first = v
			}
		}
		e.Timings.Blocked = round3(max(0, (t.RequestTime-q.t0)*1000+first))
		e.Timings.DNS = span(t.DNSStart, t.DNSEnd)
		e.Timings.Connect = span(t.ConnectStart, t.ConnectEnd)
		e.Timings.SSL = span(t.SSLStart, t.SSLEnd)
		e.Timings.Send = round3(max(0, t.SendEnd-t.SendStart))
		e.Timings.Wait = round3(max(0, t.ReceiveHeadersEnd-t.SendEnd))
		e.Timings.Receive = round3(max(0, (end-t.RequestTime)*1000-t.ReceiveHeadersEnd))
	} else {
		e.Timings.Send = 0
		if q.respAt > 0 {
			e.Timings.Wait = round3(max(0, (q.respAt-q.t0)*1000))
			e.Timings.Receive = round3(max(0, (end-q.respAt)*1000))
		} else {
			e.Timings.Wait = round3(max(0, total))
			e.Timings.Receive = 0
		}
	}
	sum := 0.0
	for _, v := range []float64{e.Timings.Blocked, e.Timings.DNS, e.Timings.Connect, e.Timings.Send, e.Timings.Wait, e.Timings.Receive} {
		if v > 0 {
			sum += v
		}
	}
	e.Time = round3(sum)
}

func harHeaders(h map[string]string) []HARNVP {
	out := []HARNVP{}
	for k, v := range h {
		if harSensitive[strings.ToLower(k)] {
			continue
		}
		out = append(out, HARNVP{Name: k, Value: v})
	}
	sortNVP(out)
	return out
}

func queryOf(raw string) []HARNVP {
	out := []HARNVP{}
	u, err := url.Parse(raw)
	if err != nil {
		return out
	}
	for k, vs := range u.Query() {
		for _, v := range vs {
			out = append(out, HARNVP{Name: k, Value: v})
		}
	}
	sortNVP(out)
	return out
}

func sortNVP(s []HARNVP) {
	sort.SliceStable(s, func(i, j int) bool { return s[i].Name < s[j].Name })
}

func httpVersion(protocol string) string {
	switch strings.ToLower(protocol) {
	case "h2":
		return "HTTP/2"
	case "h3":
		return "HTTP/3"
	case "http/1.0":
		return "HTTP/1.0"
	case "", "http/1.1":
		return "HTTP/1.1"
	}
	return protocol
}

func round3(v float64) float64 { return float64(int64(v*1000+0.5)) / 1000 }
