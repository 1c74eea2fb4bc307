package network

import (
	"encoding/json"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
)

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
	onEvent   func(cdpclient.Event)
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
func RecordHAR(p *cdpclient.Page, also []string, onEvent func(cdpclient.Event)) (*HARRecorder, error) {
	main := p.Door().Frames().Main()
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

func (r *HARRecorder) event(ev cdpclient.Event) {
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
