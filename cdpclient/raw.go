package cdpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mafredri/cdp/rpcc"
)

// Raw sends any CDP method to the browser itself and returns the raw result.
// Protocol errors (unknown method, bad params) are *Error with the browser's
// message.
func (b *Browser) Raw(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	return rawCall(ctx, b.root.conn, method, params)
}

// Raw sends any CDP method to the page's session and returns the raw result.
func (p *Page) Raw(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	if err := p.usable(); err != nil {
		return nil, err
	}
	ctx, cancel := p.guard(ctx)
	defer cancel()
	out, err := rawCall(ctx, p.s.conn, method, params)
	return out, cause(ctx, err)
}

func rawCall(ctx context.Context, conn *rpcc.Conn, method string, params json.RawMessage) (json.RawMessage, error) {
	var args any
	if len(params) > 0 && string(params) != "null" {
		args = params
	}
	var reply json.RawMessage
	err := rpcc.Invoke(ctx, method, args, &reply, conn)
	var re *rpcc.ResponseError
	if errors.As(err, &re) {
		hint := "check the method name and its parameters in the DevTools protocol reference"
		if re.Code == -32601 {
			hint = "the method does not exist in this browser's protocol; check the domain and method names (e.g. Page.reload)"
		}
		return nil, &Error{Code: CodeNotFound, Msg: fmt.Sprintf("%s: %s", method, re.Message), Hint: hint, Err: err}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	return reply, nil
}
