package cdpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient/snapshot"
)

// refText replaces, in matches, the context lines (no ref) holding text by
// lines of the elements that show it, with refs: text the snapshot gives as
// context can then be acted on (dragged, clicked, boxed). Lines and elements
// are both in document order; the main frame is searched first, then the
// frames that hold refs.
func (p *Page) refText(ctx context.Context, matches []string, text string) {
	var want []int
	for i, l := range matches {
		if _, head := snapshot.Heading(l); strings.HasPrefix(l, "_[:]") && !head {
			want = append(want, i)
		}
	}
	if len(want) == 0 {
		return
	}
	p.mu.Lock()
	keys := []frameKey{{frame: p.mainFrame}}
	p.mu.Unlock()
	for _, k := range p.refs.frames() {
		if k != keys[0] {
			keys = append(keys, k)
		}
	}
	var found []string
	for _, k := range keys {
		_ = p.withWorld(ctx, k, func(w *worldIn) error {
			base := p.refs.base()
			r, err := w.eval(ctx, fmt.Sprintf("(%s)(%s, %d, %d)", jsFunc("findText"), strconv.Quote(text), base, maxFindMatches), true)
			if err != nil {
				return err
			}
			var res struct {
				Items [][2]json.RawMessage `json:"items"`
				Last  int                  `json:"last"`
			}
			if err := json.Unmarshal(r.Value, &res); err != nil {
				return err
			}
			p.refs.record(k, base, res.Last)
			for _, it := range res.Items {
				var line string
				if json.Unmarshal(it[1], &line) == nil {
					found = append(found, line)
				}
			}
			return nil
		})
	}
	for i, idx := range want {
		if i < len(found) {
			matches[idx] = found[i]
		}
	}
}
