package cdpclient

import (
	"context"
	"encoding/json"

	"github.com/cdpmcp/cdpmcp/cdpclient/failure"

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
	if err != nil {
		return nil, failure.RawCallError(method, err)
	}
	return reply, nil
}
