package recording

import (
	"encoding/json"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
)

// event summarises a CDP event for the trace: no headers, no bodies, no
// cookies.
func (r *Recorder) event(page string, ev cdpclient.Event) {
	var e struct {
		Type    string `json:"type"`
		Request struct {
			URL    string `json:"url"`
			Method string `json:"method"`
		} `json:"request"`
		Response struct {
			URL      string `json:"url"`
			Status   int    `json:"status"`
			MimeType string `json:"mimeType"`
		} `json:"response"`
		ErrorText string `json:"errorText"`
		Frame     struct {
			ParentID string `json:"parentId"`
			URL      string `json:"url"`
		} `json:"frame"`
		Args []struct {
			Value       any    `json:"value"`
			Description string `json:"description"`
		} `json:"args"`
		ExceptionDetails struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
		Message string `json:"message"`
	}
	if json.Unmarshal(ev.Params, &e) != nil {
		return
	}
	out := map[string]any{"kind": "cdp", "method": ev.Method}
	if page != "" {
		out["page"] = page
	}
	switch ev.Method {
	case "Network.requestWillBeSent":
		out["url"], out["httpMethod"], out["type"] = e.Request.URL, e.Request.Method, e.Type
	case "Network.responseReceived":
		out["url"], out["status"], out["mime"] = e.Response.URL, e.Response.Status, e.Response.MimeType
	case "Network.loadingFailed":
		out["error"] = e.ErrorText
	case "Network.dataReceived", "Network.loadingFinished":
		return // in the HAR; too many for the trace
	case "Page.frameNavigated":
		if e.Frame.ParentID != "" {
			return
		}
		out["url"] = e.Frame.URL
	case "Runtime.consoleAPICalled":
		var parts []string
		for _, a := range e.Args {
			if s, ok := a.Value.(string); ok {
				parts = append(parts, s)
			} else if a.Value != nil {
				b, _ := json.Marshal(a.Value)
				parts = append(parts, string(b))
			} else {
				parts = append(parts, a.Description)
			}
		}
		out["level"], out["text"] = e.Type, feedback.Truncate(strings.Join(parts, " "), 500)
	case "Runtime.exceptionThrown":
		out["text"] = feedback.Truncate(e.ExceptionDetails.Text+" "+e.ExceptionDetails.Exception.Description, 500)
	case "Page.javascriptDialogOpening":
		out["dialog"], out["message"] = e.Type, e.Message
	}
	r.Line(out)
}
