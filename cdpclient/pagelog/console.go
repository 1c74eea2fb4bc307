package pagelog

import (
	"encoding/json"
	"strconv"
	"strings"
)

type remoteValue struct {
	Type        string          `json:"type"`
	Subtype     string          `json:"subtype"`
	Value       json.RawMessage `json:"value"`
	Description string          `json:"description"`
}

func (v remoteValue) String() string {
	if v.Type == "string" {
		var s string
		if json.Unmarshal(v.Value, &s) == nil {
			return s
		}
	}
	if len(v.Value) > 0 {
		return string(v.Value)
	}
	if v.Description != "" {
		return v.Description
	}
	return v.Type
}

type stackTrace struct {
	CallFrames []struct {
		URL        string `json:"url"`
		LineNumber int    `json:"lineNumber"`
	} `json:"callFrames"`
}

func (s *stackTrace) source() string {
	if s == nil || len(s.CallFrames) == 0 || s.CallFrames[0].URL == "" {
		return ""
	}
	return s.CallFrames[0].URL + ":" + strconv.Itoa(s.CallFrames[0].LineNumber+1)
}

// OnEvent takes one event of the page's sessions: console messages
// (Runtime.consoleAPICalled, Log.entryAdded), uncaught exceptions
// (Runtime.exceptionThrown) and requests (Network.requestWillBeSent,
// responseReceived, loadingFinished, loadingFailed). Other events are
// ignored.
func (l *Log) OnEvent(method string, params json.RawMessage) {
	switch method {
	case "Runtime.consoleAPICalled":
		var ev struct {
			Type       string        `json:"type"`
			Args       []remoteValue `json:"args"`
			StackTrace *stackTrace   `json:"stackTrace"`
		}
		if json.Unmarshal(params, &ev) != nil {
			return
		}
		parts := make([]string, len(ev.Args))
		for i, a := range ev.Args {
			parts[i] = a.String()
		}
		l.addConsole(ConsoleEntry{Level: consoleLevel(ev.Type), Text: strings.Join(parts, " "), Source: ev.StackTrace.source()})
	case "Runtime.exceptionThrown":
		var ev struct {
			Details struct {
				Text       string       `json:"text"`
				URL        string       `json:"url"`
				LineNumber int          `json:"lineNumber"`
				Exception  *remoteValue `json:"exception"`
				StackTrace *stackTrace  `json:"stackTrace"`
			} `json:"exceptionDetails"`
		}
		if json.Unmarshal(params, &ev) != nil {
			return
		}
		d := ev.Details
		text := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			text = "Uncaught " + d.Exception.Description
		} else if d.Exception != nil {
			text = "Uncaught " + d.Exception.String()
		}
		src := d.StackTrace.source()
		if src == "" && d.URL != "" {
			src = d.URL + ":" + strconv.Itoa(d.LineNumber+1)
		}
		l.addConsole(ConsoleEntry{Level: "error", Text: text, Source: src, Exception: true})
	case "Log.entryAdded":
		var ev struct {
			Entry struct {
				Source     string `json:"source"`
				Level      string `json:"level"`
				Text       string `json:"text"`
				URL        string `json:"url"`
				LineNumber *int   `json:"lineNumber"`
			} `json:"entry"`
		}
		if json.Unmarshal(params, &ev) != nil {
			return
		}
		e := ev.Entry
		if strings.HasSuffix(e.URL, "/favicon.ico") {
			return // the browser's own request, not the page's
		}
		src := e.URL
		if src != "" && e.LineNumber != nil {
			src += ":" + strconv.Itoa(*e.LineNumber+1)
		}
		l.addConsole(ConsoleEntry{Level: consoleLevel(e.Level), Text: e.Text, Source: src, Network: e.Source == "network"})
	default:
		l.onNetworkEvent(method, params)
	}
}

func consoleLevel(t string) string {
	switch t {
	case "error", "assert":
		return "error"
	case "warning", "warn":
		return "warning"
	case "info":
		return "info"
	case "debug", "verbose":
		return "debug"
	}
	return "log"
}
