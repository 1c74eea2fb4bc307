package network

import (
	"encoding/json"
	"strings"
	"sync"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/pagelog"
)

// maxDocumentResponses bounds the documents' responses a page keeps (its
// own documents and its frames'), as many as its request log keeps entries.
const maxDocumentResponses = 1000

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

// A page's documents' responses are recorded from its first event (the
// core's door for page events, cdpclient/doornet.go): a security audit reads
// the response of the document already shown.
func registerResponses() {
	cdpclient.OnPageEvents(func(d cdpclient.Door) cdpclient.PageListener {
		return documentsOf(d).onEvent
	})
}

// DocumentResponse is what the response to a document request of the page
// said (entry from LogDoor.Network), nil when it was no document, had no
// response yet (a redirect's hop, a failure) or is too old to be kept.
func DocumentResponse(p *cdpclient.Page, e pagelog.NetworkEntry) *ResponseMeta {
	l := documentsOf(p.Door())
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.byID[e.ID]
}

// documentLog keeps the responses to a page's latest document requests.
type documentLog struct {
	mu    sync.Mutex
	byID  map[string]*ResponseMeta
	order []string
}

type documentLogKey struct{}

func documentsOf(d cdpclient.Door) *documentLog {
	return d.Slot(documentLogKey{}, func() any { return &documentLog{byID: map[string]*ResponseMeta{}} }).(*documentLog)
}

// onEvent records a document's response; it runs on the read goroutine.
func (l *documentLog) onEvent(_, method string, params json.RawMessage) {
	if method != "Network.responseReceived" {
		return
	}
	var ev struct {
		RequestID string `json:"requestId"`
		Type      string `json:"type"`
		Response  struct {
			Headers         map[string]string `json:"headers"`
			SecurityState   string            `json:"securityState"`
			SecurityDetails *TLSDetails       `json:"securityDetails"`
		} `json:"response"`
	}
	if json.Unmarshal(params, &ev) != nil || ev.Type != "Document" || ev.RequestID == "" {
		return
	}
	r := ev.Response
	m := &ResponseMeta{Headers: make(map[string]string, len(r.Headers)), SecurityState: r.SecurityState, TLS: r.SecurityDetails}
	for k, v := range r.Headers {
		m.Headers[strings.ToLower(k)] = v
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.byID[ev.RequestID]; !ok {
		l.order = append(l.order, ev.RequestID)
		if len(l.order) > maxDocumentResponses {
			delete(l.byID, l.order[0])
			l.order = l.order[1:]
		}
	}
	l.byID[ev.RequestID] = m
}
