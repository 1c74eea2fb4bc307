package network

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
