package find

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/closedroots"
	"github.com/cdpmcp/cdpmcp/cdpclient/snapshot"
)

// refText replaces, in matches, the context lines (no ref) holding text by
// lines of the elements that show it, with refs: text the snapshot gives as
// context can then be acted on (dragged, clicked, boxed). Lines and elements
// are both in document order; the main frame is searched first, then the
// frames that hold refs.
func refText(ctx context.Context, d cdpclient.Door, matches []string, text string) {
	var want []int
	for i, l := range matches {
		if _, head := snapshot.Heading(l); strings.HasPrefix(l, "_[:]") && !head {
			want = append(want, i)
		}
	}
	if len(want) == 0 {
		return
	}
	var found []string
	d.Frames().RefWorlds(ctx, func(w *cdpclient.World) error {
		closedroots.Reveal(ctx, w, closedroots.Scan)
		return w.HandOutRefs(func(base int) (int, error) {
			r, err := w.Eval(ctx, fmt.Sprintf("(%s)(%s, %d, %d)", funcs.Func("findText"), strconv.Quote(text), base, maxMatches), true)
			if err != nil {
				return 0, err
			}
			var res struct {
				Items [][2]json.RawMessage `json:"items"`
				Last  int                  `json:"last"`
			}
			if err := json.Unmarshal(r.Value, &res); err != nil {
				return 0, err
			}
			for _, it := range res.Items {
				var line string
				if json.Unmarshal(it[1], &line) == nil {
					found = append(found, line)
				}
			}
			return res.Last, nil
		})
	})
	for i, idx := range want {
		if i < len(found) {
			matches[idx] = found[i]
		}
	}
}
