package pagelog

import (
	"encoding/json"
	"fmt"
	"time"
)

// netResponse is what the log keeps of a response (a document's headers
// and security are cdpclient/network's).
type netResponse struct {
	Status   int    `json:"status"`
	MimeType string `json:"mimeType"`
}

func (l *Log) onNetworkEvent(method string, params json.RawMessage) {
	switch method {
	case "Network.requestWillBeSent":
		var ev struct {
			RequestID string `json:"requestId"`
			LoaderID  string `json:"loaderId"`
			FrameID   string `json:"frameId"`
			Request   struct {
				URL      string `json:"url"`
				Method   string `json:"method"`
				SameSite bool   `json:"isSameSite"`
			} `json:"request"`
			Type             string       `json:"type"`
			RedirectResponse *netResponse `json:"redirectResponse"`
			Initiator        struct {
				Stack *struct {
					CallFrames []struct {
						URL    string `json:"url"`
						Line   int    `json:"lineNumber"`
						Column int    `json:"columnNumber"`
					} `json:"callFrames"`
				} `json:"stack"`
			} `json:"initiator"`
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
			URL: ev.Request.URL, Type: ev.Type, Loader: ev.LoaderID, Frame: ev.FrameID, SameSite: ev.Request.SameSite}
		if st := ev.Initiator.Stack; st != nil && len(st.CallFrames) > 0 {
			f := st.CallFrames[0]
			e.Site = fmt.Sprintf("%s:%d:%d", f.URL, f.Line, f.Column)
		}
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
			e.Status, e.MIME, e.Answered = ev.Response.Status, ev.Response.MimeType, time.Now()
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

func (l *Log) finishLocked(e *NetworkEntry) {
	e.Done = true
	e.Duration = time.Since(e.Time)
	e.Answered = time.Now()
	delete(l.open, e.ID)
}
