package network

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
	"github.com/cdpmcp/cdpmcp/internal/poll"
)

// Request returns the details of the newest request of the page whose URL
// contains urlPart; with bodies, the request's and the response's bodies too,
// cut at MaxBodyBytes (binary bodies are described, not given).
func Request(ctx context.Context, p *cdpclient.Page, urlPart string, bodies bool) (*RequestDetail, error) {
	door := p.Door()
	reqs := requestsOf(door)
	reqs.mu.Lock()
	var d *RequestDetail
	for i := len(reqs.order) - 1; i >= 0; i-- {
		if strings.Contains(reqs.order[i].URL, urlPart) {
			c := *reqs.order[i]
			d = &c
			break
		}
	}
	reqs.mu.Unlock()
	if d == nil {
		return nil, &cdpclient.Error{Code: cdpclient.CodeNotFound, Msg: fmt.Sprintf("no recent request of %s has a URL containing %q", p.ID, urlPart),
			Hint: "list the requests with network, and give part of one's URL"}
	}
	if !bodies {
		return d, nil
	}
	if d.HasPostData {
		var r struct {
			PostData string `json:"postData"`
		}
		if err := sessionCall(ctx, door, d.session, "Network.getRequestPostData", map[string]any{"requestId": d.id}, &r); err == nil {
			d.RequestBody, _ = capBody([]byte(r.PostData))
		}
	}
	if !d.done {
		// A response the page has not read to its end yet: give it a moment.
		wctx, cancel := context.WithTimeout(ctx, time.Second)
		_ = poll.Until(wctx, 20*time.Millisecond, func() (bool, error) {
			reqs.mu.Lock()
			defer reqs.mu.Unlock()
			if cur := reqs.byID[d.id]; cur != nil && cur.done {
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
	if err := sessionCall(ctx, door, d.session, "Network.getResponseBody", map[string]any{"requestId": d.id}, &r); err != nil {
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
func sessionCall(ctx context.Context, door cdpclient.Door, session, method string, params map[string]any, out any) error {
	s, err := door.Session(session)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return err
	}
	reply, err := s.Call(ctx, method, raw)
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
