package content

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/closedroots"
	"github.com/cdpmcp/cdpmcp/cdpclient/reader"
	"github.com/mafredri/cdp"
)

// Options say what Read reads.
type Options struct {
	// Selector names the element to read (CSS, through open shadow roots);
	// empty reads the page.
	Selector string
	// Format is "html" (the default), "markdown" or "text" (see Get).
	Format string
	// Whole reads all of the page as Markdown or text, its navigation,
	// header and footer included, instead of its main content.
	Whole bool
}

// Get returns p's page, or the first element matching selector, in format:
//   - "html" (the default): the HTML as it is now, scripts' changes included;
//   - "markdown": the main content as Markdown (title, byline, headings, lists,
//     tables, links as [text](url), each url the address the browser's a.href
//     gives, a fragment of the page as the page's address and the fragment),
//     found by Readability, else the page's own region (main, or its one
//     article); without the page's navigation, header and footer; with a
//     selector, all of the element;
//   - "text": the same content as plain text.
//
// Markdown and text hold what a person sees: what is not rendered or not seen
// (display none, hidden, visibility hidden, a zero-size or clipped-away box,
// aria-hidden decoration) is left out, by the page model's own rule, and the
// words of separate boxes (a button, an option) are kept apart.
func Get(ctx context.Context, p *cdpclient.Page, selector, format string) (string, error) {
	return Read(ctx, p, Options{Selector: selector, Format: format})
}

// Read is Get with all of its options.
func Read(ctx context.Context, p *cdpclient.Page, o Options) (string, error) {
	selector, format := o.Selector, o.Format
	switch format {
	case "", "html", "text", "markdown":
	default:
		return "", cdpclient.ArgErrorf("use html, markdown or text", "format %q is not html, markdown or text", format)
	}
	raw := "html"
	if format == "markdown" || format == "text" {
		raw = "shown"
	}
	var out *string
	d := p.Door()
	_, err := d.Run(ctx, cdpclient.ModeRead, func(ctx context.Context, _ *cdp.Client) error {
		// The page's closed shadow roots, shown to the page model first
		// (a snapshot may not have met them yet).
		_ = d.Frames().In(ctx, cdpclient.Frame{}, func(w *cdpclient.World) error {
			closedroots.Reveal(ctx, w, closedroots.Scan)
			return nil
		})
		// In cdpmcp's world, where an overridden innerText or querySelector
		// neither runs nor lies.
		r, err := d.CallInWorld(ctx, contentSource, selector, raw)
		if err != nil {
			return err
		}
		if r.ExceptionDetails != nil {
			if err := cdpclient.SelectorError(selector, r.ExceptionDetails); err != nil && selector != "" {
				return err
			}
			return &cdpclient.Error{Code: cdpclient.CodeJSError, Msg: "reading the content failed: " + cdpclient.ExceptionText(r.ExceptionDetails)}
		}
		if len(r.Result.Value) == 0 {
			return nil
		}
		return json.Unmarshal(r.Result.Value, &out)
	})
	if err != nil {
		return "", err
	}
	if out == nil {
		return "", &cdpclient.Error{Code: cdpclient.CodeNotFound, Msg: fmt.Sprintf("no element matches selector %q", selector),
			Hint: "check the selector or take a snapshot"}
	}
	if raw == "html" {
		return *out, nil
	}
	// The page wrote each link's address as the browser resolves it
	// (absoluteLinks), so the reader's own base URL has nothing left to
	// resolve: the page's address serves.
	var text string
	if selector == "" {
		text, err = reader.Read(*out, p.URL(), reader.Format(format), o.Whole)
	} else {
		text, err = reader.ReadFragment(*out, p.URL(), reader.Format(format))
		if format == "text" {
			text = strings.TrimSuffix(text, "\n") // an element's text, as innerText gives it
		}
	}
	if err != nil {
		return "", fmt.Errorf("getContent %s: %w", format, err)
	}
	return text, nil
}
