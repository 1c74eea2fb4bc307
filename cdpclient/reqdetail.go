package cdpclient

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
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

// reqLog keeps the details of a page's latest requests.
type reqLog struct {
	mu    sync.Mutex
	order []*RequestDetail
	byID  map[string]*RequestDetail
}

// onEvent records a Network event of the session c (the page's, or a frame's).
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

// Request returns the details of the newest request of the page whose URL
// contains urlPart; with bodies, the request's and the response's bodies too,
// cut at MaxBodyBytes (binary bodies are described, not given).
func (p *Page) Request(ctx context.Context, urlPart string, bodies bool) (*RequestDetail, error) {
	p.reqs.mu.Lock()
	var d *RequestDetail
	for i := len(p.reqs.order) - 1; i >= 0; i-- {
		if strings.Contains(p.reqs.order[i].URL, urlPart) {
			c := *p.reqs.order[i]
			d = &c
			break
		}
	}
	p.reqs.mu.Unlock()
	if d == nil {
		return nil, &Error{Code: CodeNotFound, Msg: fmt.Sprintf("no recent request of %s has a URL containing %q", p.ID, urlPart),
			Hint: "list the requests with network, and give part of one's URL"}
	}
	if !bodies {
		return d, nil
	}
	if d.HasPostData {
		var r struct {
			PostData string `json:"postData"`
		}
		if err := p.sessionCall(ctx, d.session, "Network.getRequestPostData", map[string]any{"requestId": d.id}, &r); err == nil {
			d.RequestBody, _ = capBody([]byte(r.PostData))
		}
	}
	if !d.done {
		// A response the page has not read to its end yet: give it a moment.
		wctx, cancel := context.WithTimeout(ctx, time.Second)
		_ = poll(wctx, 20*time.Millisecond, func() (bool, error) {
			p.reqs.mu.Lock()
			defer p.reqs.mu.Unlock()
			if cur := p.reqs.byID[d.id]; cur != nil && cur.done {
				d.done, d.Duration, d.EncodedBytes, d.Failed = true, cur.Duration, cur.EncodedBytes, cur.Failed
			}
			return d.done, nil
		})
		cancel()
	}
	if !d.done {
		d.BodyNote = "the response has not arrived in full yet"
		return d, nil
	}
	var r struct {
		Body          string `json:"body"`
		Base64Encoded bool   `json:"base64Encoded"`
	}
	if err := p.sessionCall(ctx, d.session, "Network.getResponseBody", map[string]any{"requestId": d.id}, &r); err != nil {
		d.BodyNote = "the browser no longer has the body (it keeps recent ones only; redirects and failures have none)"
		return d, nil
	}
	body := []byte(r.Body)
	if r.Base64Encoded {
		b, err := base64.StdEncoding.DecodeString(r.Body)
		if err != nil {
			return nil, fmt.Errorf("decode body: %w", err)
		}
		body = b
	}
	if !utf8.Valid(body) {
		d.BodyNote = fmt.Sprintf("binary, %d bytes (%s)", len(body), d.MIME)
		return d, nil
	}
	d.Body, d.BodyNote = capBody(body)
	return d, nil
}

// capBody cuts a body at MaxBodyBytes, saying how much was left out; the cut
// never splits a secret.
func capBody(b []byte) (string, string) {
	if len(b) <= MaxBodyBytes {
		return string(b), ""
	}
	s := string(b)
	cut := secrets.Cut(s, MaxBodyBytes)
	return s[:cut], fmt.Sprintf("cut: %d of %d bytes shown", cut, len(b))
}

// sessionCall sends one command on one of the page's sessions ("" for its
// own) and decodes its result.
func (p *Page) sessionCall(ctx context.Context, session, method string, params map[string]any, out any) error {
	s := p.s
	if session != "" {
		p.mu.Lock()
		f := p.frames[session]
		p.mu.Unlock()
		if f == nil {
			return fmt.Errorf("the frame that made the request is gone")
		}
		s = f.s
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return err
	}
	reply, err := rawCall(ctx, s.conn, method, raw)
	if err != nil {
		return err
	}
	return json.Unmarshal(reply, out)
}

// SortedHeaders lists headers as "Name: value" lines in name order, hiding
// the values that carry credentials (cookies, authorization).
func SortedHeaders(h map[string]string) []string {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return strings.ToLower(keys[i]) < strings.ToLower(keys[j]) })
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		v := h[k]
		switch strings.ToLower(k) {
		case "cookie", "set-cookie", "authorization", "proxy-authorization":
			v = fmt.Sprintf("[%d bytes, hidden: it carries credentials]", len(v))
		}
		out = append(out, k+": "+v)
	}
	return out
}
