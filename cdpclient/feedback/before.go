package feedback

import "github.com/cdpmcp/cdpmcp/cdpclient/pagelog"

// Before is what the page did on its own between the last answer about it and
// the action's start (a timer's request, an error, a tab it opened): none of
// it is the action's doing. An effect that came later than an action's
// answer waited for (a submit sent after a 1 s timer) is reported here by the
// next action, not lost, and not taken for that action's.
type Before struct {
	// URL is where the tab went on its own (a timer's navigation, a late
	// redirect, an SPA's route): the page the action began on.
	URL string `json:"url,omitempty"`
	// Delta is what the page changed on its own that shows now (a text a
	// timer set, an element that appeared late, a toast that came and
	// went), as an action's delta says it.
	Delta  *Delta   `json:"delta,omitempty"`
	Errors []string `json:"errors,omitempty"`
	Net    []Net    `json:"net,omitempty"`
	// NetMore counts what Net leaves out, as Feedback.NetMore does.
	NetMore string   `json:"netMore,omitempty"`
	Opened  []string `json:"opened,omitempty"`
}

// BeforeAction is the Before of an action that started at mark: the console
// errors and requests in logs between since (the last answer's mark; 0 for
// a page never answered about, whose requests, its first load, are not
// listed) and mark, and the tabs the page opened meanwhile. main and
// refusal are Requests'. Nil when there is nothing.
func BeforeAction(console []pagelog.ConsoleEntry, net []pagelog.NetworkEntry, since, mark int, origin string,
	main func(pagelog.NetworkEntry) bool, refusal func(url string) (string, bool), opened []string) *Before {
	var cons []pagelog.ConsoleEntry
	for _, e := range console {
		if e.Seq > since && e.Seq <= mark {
			cons = append(cons, e)
		}
	}
	b := &Before{Errors: Errors(ConsoleErrors(cons), origin), Opened: opened}
	if since > 0 {
		var reqs []pagelog.NetworkEntry
		for _, e := range net {
			if e.Seq > since && e.Seq <= mark {
				reqs = append(reqs, e)
			}
		}
		rs, _ := Requests(reqs, main, refusal, false)
		b.Net, b.NetMore = Summarize(onItsOwn(rs), origin, false)
	}
	if len(b.Errors) == 0 && len(b.Net) == 0 && b.NetMore == "" && len(b.Opened) == 0 {
		return nil
	}
	return b
}

// onItsOwn keeps, of what the page requested on its own, the calls that may
// have had effects (a POST, a PUT, a DELETE: answered, failed or pending)
// and the reads that failed: a poll's or an analytics beacon's reads, done or
// in flight, and images that failed to load, would come with every answer
// on a busy page and say nothing to act on.
func onItsOwn(rs []Request) []Request {
	var out []Request
	for _, r := range rs {
		read := r.Method == "" || r.Method == "GET" || r.Method == "HEAD" || r.Method == "OPTIONS"
		// A read the page dropped (ERR_ABORTED: a 204, an AbortController,
		// the page going on) failed nothing.
		readFailed := r.Blocked != "" || r.Status >= 400 || r.Failed != "" && r.Failed != "net::ERR_ABORTED"
		if api(r) && (!read || readFailed) {
			out = append(out, r)
		}
	}
	return out
}
