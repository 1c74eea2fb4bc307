package audit

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
	"github.com/mafredri/cdp"
)

// LinksOptions bound a link crawl.
type LinksOptions struct {
	// URL is where the crawl starts.
	URL string
	// MaxPages is the hard limit on pages opened (default 20, at most 500).
	MaxPages int
	// SameOrigin crawls only pages of the start page's origin; links
	// elsewhere are checked, not opened.
	SameOrigin bool
	// MaxChecks bounds the links checked without being opened (default four
	// per page, at most 1000).
	MaxChecks int
	// PageTimeout bounds each page's load (default 15 s).
	PageTimeout time.Duration
	// Progress, if set, hears of each page opened: done of total, its URL.
	Progress func(done, total int, url string)
}

// LinksReport is what a crawl found.
type LinksReport struct {
	Start string        `json:"start"`
	Pages []CrawledPage `json:"pages"`
	// Broken are links that answered 4xx/5xx or not at all.
	Broken []LinkProblem `json:"broken,omitempty"`
	// Redirected are links that answered with redirects.
	Redirected []LinkProblem `json:"redirected,omitempty"`
	// Checked counts links checked with HEAD/GET without being opened.
	Checked int `json:"checked"`
	// Unvisited counts pages found but not opened: the page limit came first.
	Unvisited int `json:"unvisited,omitempty"`
	// Outside lists links the origin rules kept the crawl from.
	Outside []string `json:"outside,omitempty"`
	// Stopped says why the crawl ended early, if it did.
	Stopped  string    `json:"stopped,omitempty"`
	Findings []Finding `json:"findings"`
}

// CrawledPage is one page the crawl opened.
type CrawledPage struct {
	URL       string   `json:"url"`
	Final     string   `json:"final,omitempty"` // where redirects ended, when elsewhere
	Status    int      `json:"status"`
	Error     string   `json:"error,omitempty"`
	Redirects []string `json:"redirects,omitempty"`
	Errors    []string `json:"consoleErrors,omitempty"`
	// Blocked says the origin rules refused the page (a redirect out of
	// bounds): it was not reached, and is no broken link.
	Blocked bool  `json:"blocked,omitempty"`
	Links   int   `json:"links"`
	Ms      int64 `json:"ms"`
}

// LinkProblem is a link that is broken or redirects, and where it was found.
type LinkProblem struct {
	URL     string   `json:"url"`
	Status  int      `json:"status,omitempty"`
	Error   string   `json:"error,omitempty"`
	Chain   []string `json:"chain,omitempty"`
	FoundOn []string `json:"foundOn"`
}

// crawl is the state of one crawl.
type crawl struct {
	opts    LinksOptions
	policy  *origins.List
	start   *url.URL
	seen    map[string]bool
	foundOn map[string][]string
	queue   []string // pages to open
	checks  []string // links to check without opening
	rep     *LinksReport
}

// Links crawls from opts.URL in a tab of its own in bc (closed at the end;
// the context's current page stays current), opening pages with GET
// navigations only, and checks the links it does not open with HEAD (GET where
// HEAD is refused). It never submits a form. The origin rules hold for every
// page, link check and redirect.
func Links(ctx context.Context, bc *cdpclient.BrowserContext, opts LinksOptions) (*LinksReport, error) {
	start, err := cdpclient.CheckURL(opts.URL)
	if err != nil {
		return nil, err
	}
	if start.Scheme != "http" && start.Scheme != "https" {
		return nil, &cdpclient.ArgError{Msg: fmt.Sprintf("%q is not a web page", opts.URL), Hint: "start from an http(s) page"}
	}
	b := bc.Browser()
	if err := cdpclient.CheckNavigation(b.Policy(), opts.URL, true); err != nil {
		return nil, err
	}
	opts = linkDefaults(opts)
	c := &crawl{opts: opts, policy: b.Policy(), start: start, seen: map[string]bool{}, foundOn: map[string][]string{},
		rep: &LinksReport{Start: opts.URL}}
	first := normalLink(start)
	c.seen[first] = true
	c.queue = []string{first}
	prev := bc.Current()
	p, err := bc.NewPage(ctx)
	if err != nil {
		return nil, err
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cdpclient.CallTimeout)
		defer cancel()
		_ = p.Close(cctx)
		if prev != nil {
			bc.SetCurrent(prev)
		}
	}()
	for len(c.queue) > 0 {
		if len(c.rep.Pages) >= opts.MaxPages {
			c.rep.Stopped = fmt.Sprintf("page limit of %d reached", opts.MaxPages)
			break
		}
		if ctx.Err() != nil {
			c.rep.Stopped = "deadline reached after " + fmt.Sprint(len(c.rep.Pages)) + " pages"
			break
		}
		next := c.queue[0]
		c.queue = c.queue[1:]
		c.visit(ctx, p, next)
		if opts.Progress != nil {
			opts.Progress(len(c.rep.Pages), opts.MaxPages, next)
		}
	}
	// Pages the limit kept the crawl from are not requested at all: the
	// limit bounds what the site sees.
	c.rep.Unvisited = len(c.queue)
	if ctx.Err() == nil {
		c.checkLinks(ctx, b)
	}
	c.findings()
	return c.rep, nil
}

func linkDefaults(o LinksOptions) LinksOptions {
	if o.MaxPages <= 0 {
		o.MaxPages = 20
	}
	o.MaxPages = min(o.MaxPages, 500)
	if o.MaxChecks <= 0 {
		o.MaxChecks = 4 * o.MaxPages
	}
	o.MaxChecks = min(o.MaxChecks, 1000)
	if o.PageTimeout <= 0 {
		o.PageTimeout = 15 * time.Second
	}
	return o
}

// visit opens one page, records how it answered and queues its links.
func (c *crawl) visit(ctx context.Context, p *cdpclient.Page, link string) {
	began := time.Now()
	cp := CrawledPage{URL: link}
	defer func() {
		cp.Ms = time.Since(began).Milliseconds()
		c.rep.Pages = append(c.rep.Pages, cp)
	}()
	d := p.Door()
	mark := d.Logs().Mark()
	pctx, cancel := context.WithTimeout(ctx, c.opts.PageTimeout)
	fb, err := p.Navigate(pctx, link, cdpclient.WaitLoad)
	cancel()
	if err != nil {
		cp.Error = err.Error()
		return
	}
	for _, e := range d.Logs().Network(mark) {
		if !d.Logs().MainDocument(e) && !(e.Type == "Document" && e.Frame == d.Frames().Main()) {
			continue
		}
		if e.Status >= 300 && e.Status < 400 {
			cp.Redirects = append(cp.Redirects, e.URL)
		} else if e.Status > 0 {
			cp.Status = e.Status
		}
		if e.Failed != "" && cp.Error == "" && e.Status == 0 {
			cp.Error = e.Failed
		}
	}
	if !fb.OK {
		cp.Error = fb.Msg
		if fb.Code == int(cdpclient.CodePermission) {
			cp.Blocked = true
			c.rep.Outside = append(c.rep.Outside, link)
		}
		return
	}
	if u := p.URL(); u != link && strings.TrimSuffix(u, "/") != strings.TrimSuffix(link, "/") {
		cp.Final = u
	}
	for _, e := range d.Logs().Console(mark) {
		// The document's own failed load is the broken link, told already.
		own := e.Network && (e.Source == link || e.Source == p.URL())
		if e.Level == "error" && !own {
			cp.Errors = append(cp.Errors, truncate(e.Text, 200))
		}
	}
	final, err := url.Parse(p.URL())
	if err != nil || (c.opts.SameOrigin && !sameOrigin(final, c.start)) || cp.Status >= 400 {
		return // a page elsewhere or an error page: its links are not the site's
	}
	var hrefs []string
	_, err = d.Run(ctx, cdpclient.ModeRead, func(ctx context.Context, _ *cdp.Client) error {
		return d.World(ctx, func(w *cdpclient.World) error {
			return call(ctx, w, auditJS("auditLinksOf"), &hrefs)
		})
	})
	if err != nil {
		return
	}
	cp.Links = len(hrefs)
	for _, h := range hrefs {
		c.add(h, link)
	}
}

// add notes a link found on page from and queues it, once.
func (c *crawl) add(href, from string) {
	u, err := url.Parse(href)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return // mailto:, tel:, javascript: and the like are not followed
	}
	link := normalLink(u)
	if len(c.foundOn[link]) < 3 {
		c.foundOn[link] = append(c.foundOn[link], from)
	}
	if c.seen[link] {
		return
	}
	c.seen[link] = true
	if err := c.policy.Check(link); err != nil {
		c.rep.Outside = append(c.rep.Outside, link)
		return
	}
	if !c.opts.SameOrigin || sameOrigin(u, c.start) {
		c.queue = append(c.queue, link)
	} else {
		c.checks = append(c.checks, link)
	}
}

// normalLink drops the fragment: #part of a page is the same page.
func normalLink(u *url.URL) string {
	v := *u
	v.Fragment, v.RawFragment = "", ""
	return v.String()
}

func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Host, b.Host)
}

// findings lists broken links, redirect chains and pages with console errors.
func (c *crawl) findings() {
	for _, pg := range c.rep.Pages {
		switch {
		case pg.Blocked:
		case pg.Error != "" || pg.Status >= 400:
			c.rep.Broken = append(c.rep.Broken, LinkProblem{URL: pg.URL, Status: pg.Status, Error: pg.Error, FoundOn: c.foundOn[pg.URL]})
		case len(pg.Redirects) > 0:
			c.rep.Redirected = append(c.rep.Redirected, LinkProblem{URL: pg.URL, Chain: append(pg.Redirects[1:], pg.Final), FoundOn: c.foundOn[pg.URL]})
		}
		if len(pg.Errors) > 0 {
			c.rep.Findings = append(c.rep.Findings, Finding{Rule: "console-errors", Severity: SeverityModerate, URL: pg.URL,
				Msg: fmt.Sprintf("%d console error(s), first: %s", len(pg.Errors), pg.Errors[0])})
		}
	}
	for _, b := range c.rep.Broken {
		what := b.Error
		if b.Status > 0 {
			what = fmt.Sprint("status ", b.Status)
		}
		c.rep.Findings = append(c.rep.Findings, Finding{Rule: "broken-link", Severity: SeveritySerious, URL: b.URL,
			Msg: fmt.Sprintf("broken link (%s), linked from %s", what, strings.Join(b.FoundOn, ", "))})
	}
	for _, r := range c.rep.Redirected {
		if len(r.Chain) < 2 {
			continue // one redirect (a trailing slash, http to https) is normal
		}
		c.rep.Findings = append(c.rep.Findings, Finding{Rule: "redirect-chain", Severity: SeverityMinor, URL: r.URL,
			Msg: fmt.Sprintf("%d redirects before the page: %s; link to the last address, linked from %s", len(r.Chain), strings.Join(r.Chain, " → "), strings.Join(r.FoundOn, ", "))})
	}
	SortFindings(c.rep.Findings)
}
