package jobs

// callsOpen reports whether a call the page made since mark (a fetch or
// XMLHttpRequest: a sign-in's check of the credentials) still has no
// answer. A form that gave way to "Signing in…" while it is open says
// nothing yet of the sign-in: the site may bring the form back with its
// error.
func (t *taskRun) callsOpen(mark int) bool {
	for _, e := range t.page.Door().Logs().Network(mark) {
		if (e.Type == "Fetch" || e.Type == "XHR") && !e.Done && e.Status == 0 {
			return true
		}
	}
	return false
}
