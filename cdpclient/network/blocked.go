package network

import "github.com/cdpmcp/cdpmcp/cdpclient"

// Blocked says why the origin rules refused the document p's address names
// ("" when they did not): the tab then shows the browser's error page for
// it, not the page. Answers that name a tab's address say so.
func Blocked(p *cdpclient.Page) string {
	why, _ := p.Door().Logs().Refusal(p.URL())
	return why
}
