package actions

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient/network"
)

type requestArgs struct {
	URL  string `json:"url" required:"true" desc:"part of the URL; the newest match"`
	Body bool   `json:"body" desc:"include the request and response bodies (text, cut at 20 kB)"`
	Page string `json:"page"`
}

// RequestDetails answers one request in detail.
var RequestDetails = define("request", "One recent request of the page in detail: method, status, headers both ways (credentials hidden), timing, and the bodies on request.",
	ClassRead, Hints{ReadOnly: true, Idempotent: true, OpenWorld: true},
	func(ctx context.Context, env *Env, a requestArgs) (*Result, error) {
		if err := require("url", a.URL, `{"url":"/api/orders"}`); err != nil {
			return nil, err
		}
		p, err := env.Page(ctx, a.Page)
		if err != nil {
			return nil, err
		}
		d, err := network.Request(ctx, p, a.URL, a.Body)
		if err != nil {
			return nil, err
		}
		return &Result{Text: capText(requestText(d, a.Body), "")}, nil
	}).inGroup("network")

// requestText renders a request's details.
func requestText(d *network.RequestDetail, bodies bool) string {
	var b strings.Builder
	status := fmt.Sprintf("%d %s", d.Status, d.StatusText)
	switch {
	case d.Failed != "":
		status = "failed: " + d.Failed
	case d.Status == 0:
		status = "no answer yet"
	}
	fmt.Fprintf(&b, "%s %s\n%s, %s", d.Method, d.URL, status, d.Type)
	if d.MIME != "" {
		b.WriteString(", " + d.MIME)
	}
	if d.Duration > 0 {
		fmt.Fprintf(&b, ", %d ms", d.Duration.Milliseconds())
	}
	if d.EncodedBytes > 0 {
		fmt.Fprintf(&b, ", %d bytes over the wire", d.EncodedBytes)
	}
	if d.RemoteAddress != "" {
		fmt.Fprintf(&b, ", from %s (%s)", d.RemoteAddress, d.Protocol)
	}
	if len(d.Timing) > 0 {
		var phases []string
		for _, k := range []string{"dns", "connect", "ssl", "send", "wait"} {
			if v, ok := d.Timing[k]; ok {
				phases = append(phases, fmt.Sprintf("%s %.1f", k, v))
			}
		}
		b.WriteString("\ntiming (ms): " + strings.Join(phases, ", "))
	}
	b.WriteString("\nrequest headers:")
	for _, h := range network.SortedHeaders(d.RequestHeaders) {
		b.WriteString("\n  " + h)
	}
	if len(d.ResponseHeaders) > 0 {
		b.WriteString("\nresponse headers:")
		for _, h := range network.SortedHeaders(d.ResponseHeaders) {
			b.WriteString("\n  " + h)
		}
	}
	if !bodies {
		if d.HasPostData {
			b.WriteString("\n(it sent a body: ask with body true)")
		}
		return b.String()
	}
	if d.RequestBody != "" {
		b.WriteString("\nrequest body:\n" + d.RequestBody)
	}
	if d.Body != "" {
		b.WriteString("\nresponse body:\n" + d.Body)
	}
	if d.BodyNote != "" {
		b.WriteString("\n(response body: " + d.BodyNote + ")")
	}
	return b.String()
}

type routeArgs struct {
	Op            string            `json:"op" required:"true" enum:"add,list,remove"`
	Pattern       string            `json:"pattern" desc:"URL glob, * any characters, e.g. */api/*"`
	Action        string            `json:"action" enum:"fulfill,abort,modify" desc:"for add"`
	Status        int               `json:"status" desc:"fulfill: default 200"`
	ContentType   string            `json:"contentType" desc:"fulfill: default text/plain"`
	Body          string            `json:"body" desc:"fulfill: the response body"`
	Headers       map[string]string `json:"headers" desc:"fulfill: response headers; modify: request headers to set"`
	RemoveHeaders []string          `json:"removeHeaders" desc:"modify: request headers to drop"`
}

// RouteAction answers the session's requests by URL pattern.
var RouteAction = define("route", "Answer this session's requests by URL pattern: fulfill with a made-up response, abort, or modify request headers; list or remove routes. Origin rules still apply first.",
	ClassAct, Hints{Destructive: true, OpenWorld: true},
	func(ctx context.Context, env *Env, a routeArgs) (*Result, error) {
		if err := require("op", a.Op, `{"op":"add","pattern":"*/api/*","action":"fulfill","body":"{}"}`); err != nil {
			return nil, err
		}
		bc, err := env.Context(ctx)
		if err != nil {
			return nil, err
		}
		switch a.Op {
		case "add":
			r := network.Route{Pattern: a.Pattern, Action: a.Action, Status: a.Status, ContentType: a.ContentType,
				Body: a.Body, Headers: a.Headers, RemoveHeaders: a.RemoveHeaders}
			if err := network.AddRoute(ctx, bc, r); err != nil {
				return nil, err
			}
		case "remove":
			n, err := network.RemoveRoute(ctx, bc, a.Pattern)
			if err != nil {
				return nil, err
			}
			if n == 0 {
				return nil, argErr(`list the routes with {"op":"list"}`, "no route has pattern %q", a.Pattern)
			}
		case "list":
		default:
			return nil, argErr("use add, list or remove", "op %q is not known", a.Op)
		}
		return &Result{Text: routeList(network.Routes(bc))}, nil
	}).inGroup("network").describe("op", "remove without pattern removes all")

func routeList(routes []network.Route) string {
	if len(routes) == 0 {
		return "no routes"
	}
	var b strings.Builder
	for _, r := range routes {
		fmt.Fprintf(&b, "%s → %s", r.Pattern, r.Action)
		switch r.Action {
		case "fulfill":
			fmt.Fprintf(&b, " %d (%d bytes)", r.Status, len(r.Body))
		case "modify":
			keys := make([]string, 0, len(r.Headers))
			for k := range r.Headers {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			fmt.Fprintf(&b, " set %v drop %v", keys, r.RemoveHeaders)
		}
		fmt.Fprintf(&b, ", %d hits\n", r.Hits)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
