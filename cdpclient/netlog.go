package cdpclient

import (
	"encoding/json"
	"strings"
	"time"
)

// ResponseMeta is what a document's response said: its headers (names in
// lower case) and how it was secured.
type ResponseMeta struct {
	Headers       map[string]string
	SecurityState string
	TLS           *TLSDetails
}

// TLSDetails describe a response's connection security.
type TLSDetails struct {
	Protocol    string  `json:"protocol"`
	KeyExchange string  `json:"keyExchange,omitempty"`
	Cipher      string  `json:"cipher"`
	SubjectName string  `json:"subjectName"`
	Issuer      string  `json:"issuer"`
	ValidTo     float64 `json:"validTo"` // seconds since the epoch
}

func responseMeta(r netResponse) *ResponseMeta {
	m := &ResponseMeta{Headers: make(map[string]string, len(r.Headers)), SecurityState: r.SecurityState, TLS: r.SecurityDetails}
	for k, v := range r.Headers {
		m.Headers[strings.ToLower(k)] = v
	}
	return m
}

type netResponse struct {
	URL             string            `json:"url"`
	Status          int               `json:"status"`
	MimeType        string            `json:"mimeType"`
	Headers         map[string]string `json:"headers"`
	SecurityState   string            `json:"securityState"`
	SecurityDetails *TLSDetails       `json:"securityDetails"`
}

func (l *pageLogs) onNetworkEvent(method string, params json.RawMessage) {
	switch method {
	case "Network.requestWillBeSent":
		var ev struct {
			RequestID string `json:"requestId"`
			LoaderID  string `json:"loaderId"`
			FrameID   string `json:"frameId"`
			Request   struct {
				URL    string `json:"url"`
				Method string `json:"method"`
			} `json:"request"`
			Type             string       `json:"type"`
			RedirectResponse *netResponse `json:"redirectResponse"`
		}
		if json.Unmarshal(params, &ev) != nil {
			return
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		if prev := l.open[ev.RequestID]; prev != nil && ev.RedirectResponse != nil {
			prev.Status = ev.RedirectResponse.Status
			l.finishLocked(prev)
		}
		l.seq++
		e := &NetworkEntry{Seq: l.seq, ID: ev.RequestID, Time: time.Now(), Method: ev.Request.Method,
			URL: ev.Request.URL, Type: ev.Type, Loader: ev.LoaderID, Frame: ev.FrameID}
		if len(l.net) >= maxNetworkEntries {
			l.net = append(l.net[:0], l.net[len(l.net)-maxNetworkEntries/2:]...)
		}
		l.net = append(l.net, e)
		l.open[ev.RequestID] = e
	case "Network.responseReceived":
		var ev struct {
			RequestID string      `json:"requestId"`
			Response  netResponse `json:"response"`
		}
		if json.Unmarshal(params, &ev) != nil {
			return
		}
		l.mu.Lock()
		if e := l.open[ev.RequestID]; e != nil {
			e.Status, e.MIME = ev.Response.Status, ev.Response.MimeType
			if e.Type == "Document" {
				e.Response = responseMeta(ev.Response)
			}
		}
		l.mu.Unlock()
	case "Network.loadingFinished":
		var ev struct {
			RequestID string `json:"requestId"`
		}
		if json.Unmarshal(params, &ev) != nil {
			return
		}
		l.mu.Lock()
		if e := l.open[ev.RequestID]; e != nil {
			l.finishLocked(e)
		}
		l.mu.Unlock()
	case "Network.loadingFailed":
		var ev struct {
			RequestID     string `json:"requestId"`
			ErrorText     string `json:"errorText"`
			Canceled      bool   `json:"canceled"`
			BlockedReason string `json:"blockedReason"`
		}
		if json.Unmarshal(params, &ev) != nil {
			return
		}
		l.mu.Lock()
		if e := l.open[ev.RequestID]; e != nil {
			e.Failed = ev.ErrorText
			if ev.Canceled && e.Failed == "" {
				e.Failed = "canceled"
			}
			e.Blocked = ev.BlockedReason
			l.finishLocked(e)
		}
		l.mu.Unlock()
	}
}

func (l *pageLogs) finishLocked(e *NetworkEntry) {
	e.Done = true
	e.Duration = time.Since(e.Time)
	delete(l.open, e.ID)
}
