package cdpclient

import (
	"encoding/json"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// HAR is an HTTP Archive 1.2 log (http://www.softwareishard.com/blog/har-12-spec/).
type HAR struct {
	Log HARLog `json:"log"`
}

// HARLog is the log object of a HAR file.
type HARLog struct {
	Version string     `json:"version"`
	Creator HARCreator `json:"creator"`
	Pages   []HARPage  `json:"pages"`
	Entries []HAREntry `json:"entries"`
}

// HARCreator names the program that wrote the log.
type HARCreator struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// HARPage is one page load; times in pageTimings are milliseconds since the
// page's start, -1 when not reached.
type HARPage struct {
	Started     string         `json:"startedDateTime"`
	ID          string         `json:"id"`
	Title       string         `json:"title"`
	PageTimings HARPageTimings `json:"pageTimings"`
}

// HARPageTimings are a page's DOMContentLoaded and load times.
type HARPageTimings struct {
	OnContentLoad float64 `json:"onContentLoad"`
	OnLoad        float64 `json:"onLoad"`
}

// HAREntry is one request and its response.
type HAREntry struct {
	PageRef  string      `json:"pageref,omitempty"`
	Started  string      `json:"startedDateTime"`
	Time     float64     `json:"time"`
	Request  HARRequest  `json:"request"`
	Response HARResponse `json:"response"`
	Cache    struct{}    `json:"cache"`
	Timings  HARTimings  `json:"timings"`
	ServerIP string      `json:"serverIPAddress,omitempty"`
	Error    string      `json:"_error,omitempty"`
	Type     string      `json:"_resourceType,omitempty"`
}

// HARRequest is a request without its body.
type HARRequest struct {
	Method      string      `json:"method"`
	URL         string      `json:"url"`
	HTTPVersion string      `json:"httpVersion"`
	Cookies     []HARNVP    `json:"cookies"`
	Headers     []HARNVP    `json:"headers"`
	QueryString []HARNVP    `json:"queryString"`
	HeadersSize int         `json:"headersSize"`
	BodySize    int         `json:"bodySize"`
	PostData    *HARPostRef `json:"postData,omitempty"`
}

// HARPostRef says a request had a body (never recorded) and its type.
type HARPostRef struct {
	MimeType string `json:"mimeType"`
	Text     string `json:"text"`
}

// HARResponse is a response without its body.
type HARResponse struct {
	Status      int        `json:"status"`
	StatusText  string     `json:"statusText"`
	HTTPVersion string     `json:"httpVersion"`
	Cookies     []HARNVP   `json:"cookies"`
	Headers     []HARNVP   `json:"headers"`
	Content     HARContent `json:"content"`
	RedirectURL string     `json:"redirectURL"`
	HeadersSize int        `json:"headersSize"`
	BodySize    int        `json:"bodySize"`
	TransferSz  int        `json:"_transferSize"`
}

// HARContent describes a response body that is not included.
type HARContent struct {
	Size     int    `json:"size"`
	MimeType string `json:"mimeType"`
}

// HARNVP is a name and a value (header, query parameter, cookie).
type HARNVP struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// HARTimings are a request's phases in milliseconds; -1 for a phase that did
// not apply.
type HARTimings struct {
	Blocked float64 `json:"blocked"`
	DNS     float64 `json:"dns"`
	Connect float64 `json:"connect"`
	Send    float64 `json:"send"`
	Wait    float64 `json:"wait"`
	Receive float64 `json:"receive"`
	SSL     float64 `json:"ssl"`
}

// harSensitive headers are left out of the log: they carry cookies and
// credentials.
var harSensitive = map[string]bool{"cookie": true, "set-cookie": true, "authorization": true, "proxy-authorization": true}

// HARRecorder builds a HAR log from a page's network events. Bodies, cookies
// and credential headers are never recorded. Requests of out-of-process frames
// are not included.
type HARRecorder struct {
	mu        sync.Mutex
	stop      func()
	order     []*harReq
	open      map[string]*harReq
	pages     []HARPage
	pageT0    float64         // monotonic seconds of the current page's first request
	docs      map[string]bool // request ids of main-frame documents
	docStatus int
	mainFrame string
	onEvent   func(Event)
}

type harReq struct {
	entry   HAREntry
	t0      float64 // monotonic seconds
	timing  *resourceTiming
	respAt  float64
	size    int
	done    bool
	started time.Time
}

type resourceTiming struct {
	RequestTime       float64 `json:"requestTime"`
	DNSStart          float64 `json:"dnsStart"`
	DNSEnd            float64 `json:"dnsEnd"`
	ConnectStart      float64 `json:"connectStart"`
	ConnectEnd        float64 `json:"connectEnd"`
	SSLStart          float64 `json:"sslStart"`
	SSLEnd            float64 `json:"sslEnd"`
	SendStart         float64 `json:"sendStart"`
	SendEnd           float64 `json:"sendEnd"`
	ReceiveHeadersEnd float64 `json:"receiveHeadersEnd"`
}

type harResponse struct {
	URL               string            `json:"url"`
	Status            int               `json:"status"`
	StatusText        string            `json:"statusText"`
	Headers           map[string]string `json:"headers"`
	MimeType          string            `json:"mimeType"`
	Protocol          string            `json:"protocol"`
	RemoteIPAddress   string            `json:"remoteIPAddress"`
	EncodedDataLength float64           `json:"encodedDataLength"`
	Timing            *resourceTiming   `json:"timing"`
}

// harEvents are the events a HAR log is built from.
var harEvents = []string{
	"Network.requestWillBeSent", "Network.responseReceived", "Network.dataReceived",
	"Network.loadingFinished", "Network.loadingFailed",
	"Page.frameNavigated", "Page.domContentEventFired", "Page.loadEventFired",
}

// RecordHAR starts recording the page's requests. onEvent, if not nil, sees
// every event the recorder reads and those named in also (e.g. for a trace),
// in order, on the recorder's goroutine. Stop ends the recording.
func (p *Page) RecordHAR(also []string, onEvent func(Event)) (*HARRecorder, error) {
	p.mu.Lock()
	main := string(p.mainFrame)
	p.mu.Unlock()
	r := &HARRecorder{open: map[string]*harReq{}, onEvent: onEvent, mainFrame: main, docs: map[string]bool{}}
	stop, err := p.Tap(append(slices.Clone(harEvents), also...), r.event)
	if err != nil {
		return nil, err
	}
	r.stop = stop
	return r, nil
}

// Stop ends the recording and returns the log. Requests still open are
// included with what is known of them.
func (r *HARRecorder) Stop(creator, version string) *HAR {
	r.stop()
	r.mu.Lock()
	defer r.mu.Unlock()
	h := &HAR{Log: HARLog{Version: "1.2", Creator: HARCreator{Name: creator, Version: version}, Pages: r.pages, Entries: []HAREntry{}}}
	if h.Log.Pages == nil {
		h.Log.Pages = []HARPage{}
	}
	for _, q := range r.order {
		e := q.entry
		if !q.done && e.Error == "" {
			e.Error = "unfinished"
		}
		h.Log.Entries = append(h.Log.Entries, e)
	}
	return h
}

// DocumentStatus is the HTTP status of the main frame's latest document, or 0
// before one arrived.
func (r *HARRecorder) DocumentStatus() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.docStatus
}

func (r *HARRecorder) event(ev Event) {
	if r.onEvent != nil {
		r.onEvent(ev)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch ev.Method {
	case "Network.requestWillBeSent":
		var e struct {
			RequestID string  `json:"requestId"`
			LoaderID  string  `json:"loaderId"`
			FrameID   string  `json:"frameId"`
			Timestamp float64 `json:"timestamp"`
			WallTime  float64 `json:"wallTime"`
			Type      string  `json:"type"`
			Request   struct {
				URL         string            `json:"url"`
				Method      string            `json:"method"`
				Headers     map[string]string `json:"headers"`
				HasPostData bool              `json:"hasPostData"`
			} `json:"request"`
			RedirectResponse *harResponse `json:"redirectResponse"`
		}
		if json.Unmarshal(ev.Params, &e) != nil {
			return
		}
		if prev := r.open[e.RequestID]; prev != nil && e.RedirectResponse != nil {
			prev.response(*e.RedirectResponse, e.Timestamp)
			prev.entry.Response.RedirectURL = e.Request.URL
			prev.finish(e.Timestamp, "")
		}
		started := time.UnixMicro(int64(e.WallTime * 1e6))
		q := &harReq{t0: e.Timestamp, started: started}
		// A main-frame navigation's request id is its loader id; a redirect
		// keeps the page it started.
		if e.Type == "Document" && e.FrameID == r.mainFrame && e.RequestID == e.LoaderID && e.RedirectResponse == nil {
			r.pages = append(r.pages, HARPage{Started: started.UTC().Format(time.RFC3339Nano), ID: "page_" + strconv.Itoa(len(r.pages)+1),
				Title: e.Request.URL, PageTimings: HARPageTimings{OnContentLoad: -1, OnLoad: -1}})
			r.pageT0 = e.Timestamp
		}
		if e.Type == "Document" && e.FrameID == r.mainFrame && e.RequestID == e.LoaderID {
			r.docs[e.RequestID] = true
		}
		q.entry = HAREntry{Started: started.UTC().Format(time.RFC3339Nano), Type: e.Type,
			Request: HARRequest{Method: e.Request.Method, URL: e.Request.URL, HTTPVersion: "", Cookies: []HARNVP{},
				Headers: harHeaders(e.Request.Headers), QueryString: queryOf(e.Request.URL), HeadersSize: -1, BodySize: -1},
			Response: HARResponse{Cookies: []HARNVP{}, Headers: []HARNVP{}, HeadersSize: -1, BodySize: -1},
			Timings:  HARTimings{Blocked: -1, DNS: -1, Connect: -1, SSL: -1}}
		if e.Request.HasPostData {
			q.entry.Request.PostData = &HARPostRef{MimeType: e.Request.Headers["Content-Type"], Text: ""}
		}
		if n := len(r.pages); n > 0 {
			q.entry.PageRef = r.pages[n-1].ID
		}
		r.order = append(r.order, q)
		r.open[e.RequestID] = q
	case "Network.responseReceived":
		var e struct {
			RequestID string      `json:"requestId"`
			Timestamp float64     `json:"timestamp"`
			Response  harResponse `json:"response"`
		}
		if json.Unmarshal(ev.Params, &e) == nil {
			if q := r.open[e.RequestID]; q != nil {
				q.response(e.Response, e.Timestamp)
			}
			if r.docs[e.RequestID] {
				r.docStatus = e.Response.Status
			}
		}
	case "Network.dataReceived":
		var e struct {
			RequestID  string `json:"requestId"`
			DataLength int    `json:"dataLength"`
		}
		if json.Unmarshal(ev.Params, &e) == nil {
			if q := r.open[e.RequestID]; q != nil {
				q.size += e.DataLength
			}
		}
	case "Network.loadingFinished", "Network.loadingFailed":
		var e struct {
			RequestID         string  `json:"requestId"`
			Timestamp         float64 `json:"timestamp"`
			EncodedDataLength float64 `json:"encodedDataLength"`
			ErrorText         string  `json:"errorText"`
			Canceled          bool    `json:"canceled"`
			BlockedReason     string  `json:"blockedReason"`
		}
		if json.Unmarshal(ev.Params, &e) != nil {
			return
		}
		q := r.open[e.RequestID]
		if q == nil {
			return
		}
		delete(r.open, e.RequestID)
		if e.EncodedDataLength > 0 {
			q.entry.Response.TransferSz = int(e.EncodedDataLength)
		}
		msg := e.ErrorText
		if e.Canceled && msg == "" {
			msg = "canceled"
		}
		if e.BlockedReason != "" {
			msg += " (blocked: " + e.BlockedReason + ")"
		}
		q.finish(e.Timestamp, msg)
	case "Page.domContentEventFired", "Page.loadEventFired":
		var e struct {
			Timestamp float64 `json:"timestamp"`
		}
		if json.Unmarshal(ev.Params, &e) != nil || len(r.pages) == 0 {
			return
		}
		pt := &r.pages[len(r.pages)-1].PageTimings
		ms := round3((e.Timestamp - r.pageT0) * 1000)
		if ev.Method == "Page.loadEventFired" {
			pt.OnLoad = ms
		} else {
			pt.OnContentLoad = ms
		}
	case "Page.frameNavigated":
		var e struct {
			Frame struct {
				ParentID string `json:"parentId"`
				URL      string `json:"url"`
			} `json:"frame"`
		}
		if json.Unmarshal(ev.Params, &e) == nil && e.Frame.ParentID == "" && len(r.pages) > 0 {
			r.pages[len(r.pages)-1].Title = e.Frame.URL
		}
	}
}

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
