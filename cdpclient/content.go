package cdpclient

import (
	"context"
	"fmt"

	"github.com/cdpmcp/cdpmcp/cdpclient/reader"
)

// Content returns the page, or the first element matching selector, in format:
//   - "html" (the default): the HTML as it is now, scripts' changes included;
//   - "markdown": the main content as Markdown (title, byline, headings, lists,
//     tables, links as [text](url)), found by Readability; with a selector, all
//     of the element;
//   - "text": the same main content as plain text; with a selector, the
//     element's visible text.
func (p *Page) Content(ctx context.Context, selector, format string) (string, error) {
	switch format {
	case "", "html", "text", "markdown":
	default:
		return "", argError("use html, markdown or text", "format %q is not html, markdown or text", format)
	}
	raw := format
	if format == "markdown" || (format == "text" && selector == "") {
		raw = "html"
	}
	var out *string
	err := p.do(ctx, func(ctx context.Context) error {
		r, err := p.evalFunc(ctx, jsWith("content", "query"), true, selector, raw)
		if err != nil {
			return err
		}
		if r.ExceptionDetails != nil {
			if err := selectorErr(selector, r.ExceptionDetails); err != nil && selector != "" {
				return err
			}
			return &Error{Code: CodeJSError, Msg: "reading the content failed: " + exceptionText(r.ExceptionDetails)}
		}
		return decodeValue(r, &out)
	})
	if err != nil {
		return "", err
	}
	if out == nil {
		return "", &Error{Code: CodeNotFound, Msg: fmt.Sprintf("no element matches selector %q", selector),
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
