package jobs

// requestMark is the page's network log position now: the requests made
// later have a larger Seq.
func (t *taskRun) requestMark() int {
	es := t.page.NetworkEntries()
	if len(es) == 0 {
		return 0
	}
	return es[len(es)-1].Seq
}

// callsOpen reports whether a call the page made after mark that sends
// something (a fetch or XMLHttpRequest POST: a sign-in's check of the
// credentials) still has no answer. A form that gave way to "Signing in…"
// while it is open says nothing yet of the sign-in: the site may bring the
// form back with its error. Reads are left out: a page's long poll would
// hold the outcome till the wait ends.
func (t *taskRun) callsOpen(mark int) bool {
	for _, e := range t.page.NetworkEntries() {
		if e.Seq > mark && (e.Type == "Fetch" || e.Type == "XHR") && e.Method != "GET" && e.Method != "HEAD" && !e.Done && e.Status == 0 {
			return true
		}
	}
	return false
}
