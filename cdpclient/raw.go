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
		msg := fmt.Sprintf("%s: %s", method, re.Message)
		if re.Data != "" {
			msg += " (" + re.Data + ")"
		}
		switch re.Code {
		case -32602: // the parameters: the caller's to fix
			return nil, ArgErrorf("check the parameters' names and types for "+method+" in the DevTools protocol reference", "%s", msg)
		case -32601:
			return nil, &Error{Code: CodeNotFound, Msg: msg, Err: err,
				Hint: "the method does not exist in this browser's protocol; check the domain and method names (e.g. Page.reload)"}
		}
		return nil, &Error{Code: CodeNotFound, Msg: msg, Hint: "check the method name and its parameters in the DevTools protocol reference", Err: err}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	return reply, nil
}
