package cdpclient

import (
	"context"
	"fmt"
)

// Content returns the page's HTML (format "html", the default) or visible text
// ("text"), of the whole document or of the first element matching selector.
func (p *Page) Content(ctx context.Context, selector, format string) (string, error) {
	switch format {
	case "", "html", "text":
	default:
		return "", argError("use html or text", "format %q is not html or text", format)
	}
	var out *string
	err := p.do(ctx, func(ctx context.Context) error {
		r, err := p.evalFunc(ctx, jsWith("content", "query"), true, selector, format)
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
	return *out, nil
}
