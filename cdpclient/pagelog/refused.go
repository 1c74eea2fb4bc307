package pagelog

// maxRefusals bounds the URLs whose refusal is remembered: past it, the
// reasons start over.
const maxRefusals = 200

// Refuse notes that the origin rules refused a request of the page for url,
// and why, so that feedback can say (Refusal, LastRefusal): the browser
// reports such a request only as net::ERR_BLOCKED_BY_CLIENT.
func (l *Log) Refuse(url, why string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.refused == nil || len(l.refused) > maxRefusals {
		l.refused = map[string]string{}
	}
	l.refused[url] = why
	l.lastRefusal = why
}

// Refusal is why the origin rules refused a request for url, if they did.
func (l *Log) Refusal(url string) (string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	why, ok := l.refused[url]
	return why, ok
}

// LastRefusal is why the origin rules refused the page's latest refused
// request ("" when they refused none).
func (l *Log) LastRefusal() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lastRefusal
}
