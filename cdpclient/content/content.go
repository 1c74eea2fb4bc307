package content

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/reader"
	"github.com/mafredri/cdp"
)

// Get returns p's page, or the first element matching selector, in format:
//   - "html" (the default): the HTML as it is now, scripts' changes included;
//   - "markdown": the main content as Markdown (title, byline, headings, lists,
//     tables, links as [text](url)), found by Readability; with a selector, all
//     of the element;
//   - "text": the same main content as plain text; with a selector, the
//     element's visible text.
func Get(ctx context.Context, p *cdpclient.Page, selector, format string) (string, error) {
	switch format {
	case "", "html", "text", "markdown":
	default:
		return "", cdpclient.ArgErrorf("use html, markdown or text", "format %q is not html, markdown or text", format)
	}
	raw := format
	if format == "markdown" || (format == "text" && selector == "") {
		raw = "html"
	}
	var out *string
	d := p.Door()
	err := d.Do(ctx, func(ctx context.Context, _ *cdp.Client) error {
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
	if raw == format {
		return *out, nil
	}
	var text string
	if selector == "" {
		text, err = reader.Read(*out, p.URL(), reader.Format(format))
	} else {
		text, err = reader.ReadFragment(*out, p.URL(), reader.Format(format))
	}
	if err != nil {
		return "", fmt.Errorf("getContent %s: %w", format, err)
	}
	return text, nil
}
