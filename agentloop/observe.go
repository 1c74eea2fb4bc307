package agentloop

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/pagemodel"
	"github.com/cdpmcp/cdpmcp/cdpclient/snapshot"
)

// observation is the browser state a step shows the model (seed 000 §2.2's
// Browser State).
type observation struct {
	page     *cdpclient.Page
	url      string
	tabs     string   // Available tabs, one a line
	tabIDs   []string // page ids in that order
	elements string   // the snapshot, seed 000's element list
	refs     map[int]bool
}

// observe reads the current page: its URL, the tabs and the element list.
// A dialog blocking the page is described instead of the elements.
func (r *runner) observe(ctx context.Context) (*observation, error) {
	return r.observeBy(ctx, func(p *cdpclient.Page) (string, error) {
		return pagemodel.Snapshot(ctx, p, pagemodel.Options{})
	})
}

// observeBy is observe with the element list read by list (the step's look,
// which takes the picture after it).
func (r *runner) observeBy(ctx context.Context, list func(*cdpclient.Page) (string, error)) (*observation, error) {
	bc, err := r.env.Context(ctx)
	if err != nil {
		return nil, err
	}
	p, err := bc.Page(ctx, "")
	if err != nil {
		return nil, err
	}
	obs := &observation{page: p, url: p.URL()}
	text, err := list(p)
	var dialog *cdpclient.DialogOpenError
	title, titled := "", false
	switch {
	case errors.As(err, &dialog):
		obs.elements = fmt.Sprintf("_[:]A %s dialog is open: %q. Nothing on the page can be used until handle_dialog answers it.",
			dialog.Dialog.Type, dialog.Dialog.Message)
	case err != nil:
		return nil, err
	default:
		obs.elements = elementList(text, obs.url)
		header, _, _ := strings.Cut(text, "\n")
		title, titled = snapshot.HeaderTitle(header)
	}
	if !titled {
		title = p.DocumentTitle(ctx)
	}
	obs.tabs, obs.tabIDs = tabList(ctx, bc, p, title)
	obs.refs = refsOf(obs.elements)
	return obs, nil
}

// refsOf lists the element indexes of an element list.
func refsOf(elements string) map[int]bool {
	refs := map[int]bool{}
	for rest := elements; rest != ""; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		if i := strings.Index(line, "[:]"); i > 0 {
			if n, err := strconv.Atoi(line[:i]); err == nil {
				refs[n] = true
			}
		}
	}
	return refs
}

// elementList is the snapshot without what the prompt already says: the
// header's URL (it keeps the title and how far the page scrolls).
func elementList(text, url string) string {
	header, body, _ := strings.Cut(text, "\n")
	if url != "" {
		header = strings.Replace(header, " "+url, "", 1)
	}
	if body == "" {
		return header + "\n_[:](the page shows nothing to read or use)"
	}
	return header + "\n" + body
}

// tabList renders the open tabs for the prompt, "index: title — url" (the
// current one without its URL, which the prompt gives already), and
// returns their page ids in the same order. The current page's title is
// curTitle, its document's (as the snapshot read it); the others' come from
// the browser, which does not wait for a background tab's page.
func tabList(ctx context.Context, bc *cdpclient.BrowserContext, cur *cdpclient.Page, curTitle string) (string, []string) {
	var b strings.Builder
	var ids []string
	for i, p := range bc.Pages() {
		title := curTitle
		if p != cur {
			title = p.Title(ctx)
		}
		if title == "" || strings.HasSuffix(p.URL(), title) {
			title = "(no title)"
		}
		if p == cur {
			// Its URL is the prompt's Current url.
			fmt.Fprintf(&b, "%d: %s (current)", i, clip(title, 80))
		} else {
			fmt.Fprintf(&b, "%d: %s — %s", i, clip(title, 80), p.URL())
		}
		b.WriteByte('\n')
		ids = append(ids, p.ID)
	}
	return strings.TrimSuffix(b.String(), "\n"), ids
}
