package actions

import (
	"sync"

	"github.com/cdpmcp/cdpmcp/cdpclient"
)

// An evaluate answer too long for one result is kept, so that the next parts
// (evaluate with from) come from the same value without running the
// expression again: reading on neither repeats its side effects nor waits for
// a large value to cross the protocol again. What is kept is bounded: one
// answer per page, answers up to keptAnswerMax, all of them up to keptTotalMax
// (the oldest goes first); an answer no longer kept is computed again.
const (
	keptAnswerMax = 32 << 20
	keptTotalMax  = 64 << 20
)

// keptAnswer is a page's last cut evaluate answer and what asked for it.
type keptAnswer struct {
	page *cdpclient.Page
	key  string
	text string
}

var kept struct {
	mu    sync.Mutex
	list  []keptAnswer // oldest first, at most one per page
	bytes int
}

// keptText returns the answer kept for key on page p, if any.
func keptText(p *cdpclient.Page, key string) (string, bool) {
	kept.mu.Lock()
	defer kept.mu.Unlock()
	for _, k := range kept.list {
		if k.page == p && k.key == key {
			return k.text, true
		}
	}
	return "", false
}

// keepText keeps a cut answer for key on page p, in place of the page's
// earlier one, dropping the oldest answers while over keptTotalMax.
func keepText(p *cdpclient.Page, key, text string) {
	kept.mu.Lock()
	defer kept.mu.Unlock()
	for i, k := range kept.list {
		if k.page == p {
			kept.bytes -= len(k.text)
			copy(kept.list[i:], kept.list[i+1:])
			kept.list[len(kept.list)-1] = keptAnswer{}
			kept.list = kept.list[:len(kept.list)-1]
			break
		}
	}
	if len(text) > keptAnswerMax {
		return
	}
	kept.list = append(kept.list, keptAnswer{page: p, key: key, text: text})
	kept.bytes += len(text)
	for kept.bytes > keptTotalMax && len(kept.list) > 0 {
		kept.bytes -= len(kept.list[0].text)
		kept.list[0] = keptAnswer{}
		kept.list = kept.list[1:]
	}
}
