package audit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
)

const (
	linkCheckTimeout  = 10 * time.Second
	linkCheckParallel = 4
	maxRedirects      = 10
)

// checkLinks checks the links the crawl did not open: HEAD, or GET where the
// server refuses HEAD, following redirects by hand so each hop is checked
// against the origin rules and the chain is known. Requests go through the
// egress proxy when origin rules are set, so they obey the same rules as the
// browser; they carry the browser's user agent and no cookies.
func (c *crawl) checkLinks(ctx context.Context, b *cdpclient.Browser) {
	links := c.checks
	if len(links) > c.opts.MaxChecks {
		links = links[:c.opts.MaxChecks]
	}
	if len(links) == 0 {
		return
	}
	client, ua := linkClient(ctx, b)
	type result struct {
		link   string
		status int
		chain  []string
		err    error
	}
	results := make([]result, len(links))
	var wg sync.WaitGroup
	sem := make(chan struct{}, linkCheckParallel)
	for i, link := range links {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			st, chain, err := checkLink(ctx, client, ua, b, link)
			results[i] = result{link, st, chain, err}
		}()
	}
	wg.Wait()
	for _, r := range results {
		var blocked *blockedError
		switch {
		case errors.As(r.err, &blocked):
			c.rep.Outside = append(c.rep.Outside, r.link)
			continue
		case r.err != nil:
			c.rep.Broken = append(c.rep.Broken, LinkProblem{URL: r.link, Error: r.err.Error(), FoundOn: c.foundOn[r.link]})
		case r.status >= 400:
			c.rep.Broken = append(c.rep.Broken, LinkProblem{URL: r.link, Status: r.status, FoundOn: c.foundOn[r.link]})
		case len(r.chain) > 0:
			c.rep.Redirected = append(c.rep.Redirected, LinkProblem{URL: r.link, Chain: r.chain, FoundOn: c.foundOn[r.link]})
		}
		c.rep.Checked++
	}
}

// blockedError is a link the origin rules refuse.
type blockedError struct{ err error }

func (e *blockedError) Error() string { return e.err.Error() }

// linkClient is an HTTP client that does not follow redirects itself and
// goes through the browser's egress proxy when there is one, with the
// browser's user agent.
func linkClient(ctx context.Context, b *cdpclient.Browser) (*http.Client, string) {
	tr := &http.Transport{Proxy: nil, MaxIdleConnsPerHost: linkCheckParallel, ResponseHeaderTimeout: linkCheckTimeout}
	if proxy := b.EgressProxy(); proxy != "" {
		if pu, err := url.Parse(proxy); err == nil {
			tr.Proxy = http.ProxyURL(pu)
		}
	}
	var v struct {
		UserAgent string `json:"userAgent"`
	}
	if r, err := b.Raw(ctx, "Browser.getVersion", nil); err == nil {
		_ = json.Unmarshal(r, &v)
	}
	ua := v.UserAgent
	return &http.Client{Transport: tr, Timeout: linkCheckTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}, ua
}

// checkLink asks for link and follows its redirects; it returns the final
// status and the addresses redirected to.
func checkLink(ctx context.Context, client *http.Client, ua string, b *cdpclient.Browser, link string) (int, []string, error) {
	var chain []string
	cur := link
	for hop := 0; hop <= maxRedirects; hop++ {
		if err := b.Policy().Check(cur); err != nil {
			return 0, chain, &blockedError{err}
		}
		status, loc, err := request(ctx, client, ua, http.MethodHead, cur)
		if err == nil && (status == http.StatusMethodNotAllowed || status == http.StatusNotImplemented || status == http.StatusForbidden) {
			status, loc, err = request(ctx, client, ua, http.MethodGet, cur)
		}
		if err != nil {
			return 0, chain, err
		}
		if status < 300 || status >= 400 || loc == "" {
			return status, chain, nil
		}
		next, err := url.Parse(cur)
		if err == nil {
			next, err = next.Parse(loc)
		}
		if err != nil {
			return status, chain, fmt.Errorf("bad redirect to %q", loc)
		}
		cur = next.String()
		chain = append(chain, cur)
	}
	return 0, chain, fmt.Errorf("more than %d redirects", maxRedirects)
}

func request(ctx context.Context, client *http.Client, ua, method, link string) (int, string, error) {
	req, err := http.NewRequestWithContext(ctx, method, link, nil)
	if err != nil {
		return 0, "", err
	}
	if ua != "" {
		req.Header.Set("User-Agent", ua)
	}
	req.Header.Set("Accept", "text/html,*/*;q=0.8")
	resp, err := client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return 0, "", err
	}
	_, _ = io.CopyN(io.Discard, resp.Body, 64<<10)
	_ = resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Location"), nil
}
