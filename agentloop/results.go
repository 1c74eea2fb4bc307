package agentloop

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/cdpmcp/cdpmcp/actions"
	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
)

// resultText is what the next prompt says an action gave: its text, capped,
// then its feedback without what the action line already says and without
// page noise (asset errors, timings). After an action that leaves for another
// page (breaks), the page's URL and title are left out too: the next prompt
// opens with them.
func resultText(r *actions.Result, breaks bool) string {
	var parts []string
	if r.Text != "" {
		t := r.Text
		if len(t) > maxResultText {
			t = t[:maxResultText] + fmt.Sprintf("… [%d more characters left out]", len(t)-maxResultText)
		}
		parts = append(parts, t)
	}
	if fb := r.Feedback; fb != nil {
		short := struct {
			OK     bool             `json:"ok"`
			Delta  *feedback.Delta  `json:"delta,omitempty"`
			Errors []string         `json:"errors,omitempty"`
			Net    []feedback.Net   `json:"net,omitempty"`
			Dialog *feedback.Dialog `json:"dialog,omitempty"`
			Opened []string         `json:"opened,omitempty"`
			// What the page did on its own before the action (a request
			// a timer sent after the last one): not the action's doing.
			Before *feedback.Before `json:"before,omitempty"`
			Hint   string           `json:"hint,omitempty"`
		}{OK: fb.OK, Delta: fb.Delta, Net: pageNet(fb.Net), Dialog: fb.Dialog, Opened: fb.Opened, Before: fb.Before,
			Hint: toolNames.Replace(fb.Hint)}
		if breaks && fb.Delta != nil {
			d := *fb.Delta
			d.URL, d.Title = "", ""
			if short.Delta = &d; d.Empty() {
				short.Delta = nil
			}
		} else if short.Delta.Empty() {
			// Nothing visible happened: a script error may say why.
			short.Delta, short.Errors = nil, clipAll(fb.Errors, 2, 80)
		}
		parts = append(parts, marshal(short))
	}
	if r.Image != nil {
		parts = append(parts, "[image]")
	}
	return strings.Join(parts, "\n")
}

// pageNet keeps the requests worth a model's attention: writes that failed
// (a form post refused, an API down). Assets that did not load are noise to a
// task, and the page the model reads next shows what a navigation got.
func pageNet(net []feedback.Net) []feedback.Net {
	var out []feedback.Net
	for _, n := range net {
		if n.M != "" && (n.S >= 400 || n.E != "") && len(out) < 2 {
			n.U = clip(n.U, 60)
			out = append(out, n)
		}
	}
	return out
}

// clipAll keeps at most n strings, each cut to max bytes.
func clipAll(list []string, n, max int) []string {
	var out []string
	for _, s := range list {
		if len(out) == n {
			break
		}
		out = append(out, clip(s, max))
	}
	return out
}

// feedbackError renders a failed action's feedback as the prompt's error line.
func feedbackError(fb *feedback.Feedback) string {
	s := cdpclient.Code(fb.Code).String() + ": " + fb.Msg
	if fb.Dialog != nil {
		s += fmt.Sprintf(" (a %s dialog is open: %q)", fb.Dialog.Type, fb.Dialog.Msg)
	}
	if fb.Hint != "" {
		s += ". Hint: " + toolNames.Replace(fb.Hint)
	}
	return s
}

// errorText renders an error for the model.
func errorText(err error) string {
	var se *stepError
	var ae *cdpclient.ArgError
	var up *cdpclient.UnknownPageError
	switch {
	case errors.As(err, &se):
		return se.msg
	case errors.As(err, &ae):
		if ae.Hint != "" {
			return ae.Msg + ". Hint: " + toolNames.Replace(ae.Hint)
		}
		return ae.Msg
	case errors.As(err, &up):
		return up.Error() + ". Hint: pick a tab from Available tabs"
	}
	c := cdpclient.Classify(err)
	s := c.Code.String() + ": " + c.Msg
	if c.Hint != "" {
		s += ". Hint: " + toolNames.Replace(c.Hint)
	}
	return s
}

// toolNames rewrites the MCP tool names that hints mention into the names of
// the model's Functions list.
var toolNames = hintRewriter{regexp.MustCompile(`\b(handleDialog|closePage|switchPage|newPage|listPages|waitFor|selectOption|pressKey|navigate|take a snapshot|snapshot|timeoutMs)\b`), map[string]string{
	"handleDialog": "handle_dialog", "closePage": "close_tab", "switchPage": "switch_tab", "newPage": "open_tab",
	"listPages": "Available tabs", "waitFor": "wait_for", "selectOption": "select_option", "pressKey": "send_keys",
	"navigate": "go_to_url", "take a snapshot": "read the new element list",
	"snapshot": "element list", "timeoutMs": "timeout_ms",
}}

type hintRewriter struct {
	re *regexp.Regexp
	to map[string]string
}

func (h hintRewriter) Replace(s string) string {
	return h.re.ReplaceAllStringFunc(s, func(m string) string { return h.to[m] })
}
