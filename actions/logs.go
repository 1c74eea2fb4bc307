package actions

import (
	"context"
	"fmt"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/pagelog"
)

const defaultLogLimit = 30

type logArgs struct {
	Contains string `json:"contains"`
	Limit    int    `json:"limit" desc:"the newest N (default 30)"`
	Page     string `json:"page"`
}

// answer renders the newest of a page's log lines, lines(page, page's origin)
// giving them all, oldest first; empty is what it says when there are none
// (when a filter took them all: that none match).
func (a logArgs) answer(ctx context.Context, env *Env, empty string, lines func(*cdpclient.Page, string) []string) (*Result, error) {
	limit := defaultLogLimit
	switch {
	case a.Limit < 0:
		return nil, argErr("give a positive limit, e.g. 20", "limit %d is negative", a.Limit)
	case a.Limit > 0:
		limit = min(a.Limit, 500)
	}
	p, err := env.Page(ctx, a.Page)
	if err != nil {
		return nil, err
	}
	return &Result{Text: tail(lines(p, feedback.Origin(p.URL())), limit, empty)}, nil
}

type consoleArgs struct {
	Level string `json:"level" enum:"error,warning,all" desc:"minimum level (default all)"`
	logArgs
}

// Console answers the page's recent console messages.
var Console = define("console", "Recent console messages and uncaught errors, oldest first.",
	ClassRead, Hints{ReadOnly: true, Idempotent: true},
	func(ctx context.Context, env *Env, a consoleArgs) (*Result, error) {
		min, ok := logRank[a.Level]
		if !ok {
			return nil, argErr("use error, warning or all", "level %q is not a log level", a.Level)
		}
		empty := "no console messages"
		if min > 0 || a.Contains != "" {
			empty = "no console messages match"
		}
		return a.answer(ctx, env, empty, func(p *cdpclient.Page, origin string) []string {
			var lines []string
			// Which page a message came from: a line for each page the tab
			// went to since the oldest message shown.
			docs := p.DocumentEntries()
			for _, e := range p.ConsoleEntries() {
				if logRank[e.Level] < min || (a.Contains != "" && !strings.Contains(e.Text+" "+e.Source, a.Contains)) {
					continue
				}
				for len(docs) > 0 && !docs[0].Time.After(e.Time) {
					if len(lines) > 0 {
						lines = append(lines, "— then the tab went to "+feedback.RelURL(docs[0].URL, origin)+" —")
					}
					docs = docs[1:]
				}
				line := e.Level + " " + feedback.Truncate(strings.ReplaceAll(e.Text, "\n", " ⏎ "), 500)
				if e.Source != "" {
					line += " (" + feedback.RelURL(e.Source, origin) + ")"
				}
				lines = append(lines, line)
			}
			return lines
		})
	}).describe("contains", "text to match")

// logRank orders console levels for the level filter.
var logRank = map[string]int{"": 0, "all": 0, "warning": 1, "error": 2}

type networkArgs struct {
	Filter string `json:"filter" enum:"all,failed,api,document" desc:"failed: errors, 4xx/5xx; api: XHR/fetch"`
	logArgs
}

// Network answers the page's recent requests.
var Network = define("network", "Recent requests: method, status, URL, type, ms; oldest first.",
	ClassRead, Hints{ReadOnly: true, Idempotent: true},
	func(ctx context.Context, env *Env, a networkArgs) (*Result, error) {
		keep, ok := netFilters[a.Filter]
		if !ok {
			return nil, argErr("use all, failed, api or document", "filter %q is not known", a.Filter)
		}
		empty := "no requests"
		if (a.Filter != "" && a.Filter != "all") || a.Contains != "" {
			empty = "no requests match"
		}
		return a.answer(ctx, env, empty, func(p *cdpclient.Page, origin string) []string {
			var lines []string
			for _, e := range p.NetworkEntries() {
				if keep(e) && (a.Contains == "" || strings.Contains(e.URL, a.Contains)) {
					lines = append(lines, requestLine(e, origin))
				}
			}
			return lines
		})
	}).describe("contains", "URL part to match")

// requestLine is one request in the network log: method, status, URL, type,
// duration.
func requestLine(e pagelog.NetworkEntry, origin string) string {
	status := fmt.Sprint(e.Status)
	switch {
	case e.Blocked != "":
		status = "BLOCKED:" + e.Blocked
	case e.Failed != "":
		status = "FAILED:" + e.Failed
	case e.Status == 0:
		status = "pending"
	}
	line := fmt.Sprintf("%s %s %s %s", e.Method, status, feedback.RelURL(e.URL, origin), e.Type)
	if e.Done {
		line += fmt.Sprintf(" %dms", e.Duration.Milliseconds())
	}
	return line
}

var netFilters = map[string]func(pagelog.NetworkEntry) bool{
	"":    func(pagelog.NetworkEntry) bool { return true },
	"all": func(pagelog.NetworkEntry) bool { return true },
	"failed": func(e pagelog.NetworkEntry) bool {
		return e.Failed != "" || e.Blocked != "" || e.Status >= 400
	},
	"api":      func(e pagelog.NetworkEntry) bool { return e.Type == "XHR" || e.Type == "Fetch" },
	"document": func(e pagelog.NetworkEntry) bool { return e.Type == "Document" },
}

// tail keeps the last n lines, saying how many earlier ones were left out.
func tail(lines []string, n int, empty string) string {
	if len(lines) == 0 {
		return empty
	}
	head := ""
	if len(lines) > n {
		head = fmt.Sprintf("(%d earlier entries left out)\n", len(lines)-n)
		lines = lines[len(lines)-n:]
	}
	return head + strings.Join(lines, "\n")
}
