package network

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
)

const (
	// maxRequestDetails bounds the requests a page keeps the details of.
	maxRequestDetails = 200
	// MaxBodyBytes caps a body RequestDetail hands out.
	MaxBodyBytes = 20000
)

// RequestDetail is everything known of one request: headers both ways, the
// status, the timing, and (on request) the bodies.
type RequestDetail struct {
	Method, URL, Type string
	Status            int
	StatusText, MIME  string
	RequestHeaders    map[string]string
	ResponseHeaders   map[string]string
	HasPostData       bool
	RemoteAddress     string
	Protocol          string
	Failed            string
	Started           time.Time
	Duration          time.Duration // until the last byte (or the failure)
	Timing            map[string]float64
	EncodedBytes      int64
	RequestBody, Body string // filled by Request when asked for
	BodyNote          string // why Body is empty or cut
	done              bool
	id                string
	session           string // the session that saw it ("" for the page's)
}

// A page's requests are recorded from its first event (the core's door for
// page events, cdpclient/doornet.go), so that Request finds one made before
// anyone asked.
func registerRequestLog() {
	cdpclient.OnPageEvents(func(d cdpclient.Door) cdpclient.PageListener {
		return requestsOf(d).onEvent
	})
}

// reqLogKey is the key of a page's reqLog in its door's slot.
type reqLogKey struct{}

// requestsOf is the log of the page's latest requests.
func requestsOf(d cdpclient.Door) *reqLog {
	return d.Slot(reqLogKey{}, func() any { return &reqLog{} }).(*reqLog)
}

// reqLog keeps the details of a page's latest requests.
type reqLog struct {
	mu    sync.Mutex
	order []*RequestDetail
	byID  map[string]*RequestDetail
}

// onEvent records a Network event of a session of the page ("": its own,
// else an out-of-process frame's).
// It runs on the read goroutine: no CDP calls.
func (l *reqLog) onEvent(session, method string, params json.RawMessage) {
	var ev struct {
		RequestID string `json:"requestId"`
		Type      string `json:"type"`
		Request   struct {
			URL         string            `json:"url"`
			Method      string            `json:"method"`
			Headers     map[string]string `json:"headers"`
			HasPostData bool              `json:"hasPostData"`
		} `json:"request"`
		Response *struct {
			Status          int                `json:"status"`
			StatusText      string             `json:"statusText"`
			Headers         map[string]string  `json:"headers"`
			MimeType        string             `json:"mimeType"`
			RemoteIPAddress string             `json:"remoteIPAddress"`
			RemotePort      int                `json:"remotePort"`
			Protocol        string             `json:"protocol"`
			Timing          map[string]float64 `json:"timing"`
		} `json:"response"`
		RedirectResponse  *json.RawMessage `json:"redirectResponse"`
		EncodedDataLength float64          `json:"encodedDataLength"`
		ErrorText         string           `json:"errorText"`
	}
	switch method {
	case "Network.requestWillBeSent", "Network.responseReceived", "Network.loadingFinished", "Network.loadingFailed":
	default:
		return
	}
	if json.Unmarshal(params, &ev) != nil || ev.RequestID == "" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.byID == nil {
		l.byID = map[string]*RequestDetail{}
	}
	d := l.byID[ev.RequestID]
	switch method {
	case "Network.requestWillBeSent":
		if d != nil && ev.RedirectResponse != nil {
			delete(l.byID, ev.RequestID) // the redirect hop stays in order, done
			d.done = true
		}
		d = &RequestDetail{id: ev.RequestID, session: session, Method: ev.Request.Method, URL: ev.Request.URL, Type: ev.Type,
			RequestHeaders: ev.Request.Headers, HasPostData: ev.Request.HasPostData, Started: time.Now()}
		l.byID[ev.RequestID] = d
		l.order = append(l.order, d)
		if len(l.order) > maxRequestDetails {
			old := l.order[0]
			l.order = l.order[1:]
			if l.byID[old.id] == old {
				delete(l.byID, old.id)
			}
		}
	case "Network.responseReceived":
		if d == nil || ev.Response == nil {
			return
		}
		r := ev.Response
		d.Status, d.StatusText, d.ResponseHeaders, d.MIME, d.Protocol = r.Status, r.StatusText, r.Headers, r.MimeType, r.Protocol
		if r.RemoteIPAddress != "" {
			d.RemoteAddress = fmt.Sprintf("%s:%d", r.RemoteIPAddress, r.RemotePort)
		}
		d.Timing = phases(r.Timing)
	case "Network.loadingFinished", "Network.loadingFailed":
		if d == nil {
			return
		}
		d.done, d.Duration, d.EncodedBytes, d.Failed = true, time.Since(d.Started), int64(ev.EncodedDataLength), ev.ErrorText
	}
}

// phases turns a resource timing (ms since its requestTime, -1 when a phase
// did not happen) into durations in ms: dns, connect, ssl, send, wait
// (server time to the first byte).
func phases(t map[string]float64) map[string]float64 {
	if t == nil {
		return nil
	}
	out := map[string]float64{}
	span := func(name, from, to string) {
		if a, b := t[from], t[to]; a >= 0 && b >= a && (a > 0 || b > 0) {
			out[name] = b - a
		}
	}
	span("dns", "dnsStart", "dnsEnd")
	span("connect", "connectStart", "connectEnd")
	span("ssl", "sslStart", "sslEnd")
	span("send", "sendStart", "sendEnd")
	span("wait", "sendEnd", "receiveHeadersEnd")
	return out
}
