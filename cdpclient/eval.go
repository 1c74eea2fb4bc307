package cdpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/runtime"
)

// EvalOptions modify Evaluate.
type EvalOptions struct {
	// Target, if set, is passed to the expression, which must then be a function
	// such as (el) => el.value.
	Target Target
	// AwaitPromise waits for a returned promise and gives its value.
	AwaitPromise bool
	// SideEffectFree refuses expressions that may change the page (CDP's
	// throwOnSideEffect).
	SideEffectFree bool
}

// Evaluate runs a JavaScript expression in the page's main frame and returns its
// value as JSON text ("undefined" for undefined). An expression that evaluates to
// a function is called with no arguments. A thrown exception is an *Error with
// CodeJSError.
func (p *Page) Evaluate(ctx context.Context, expression string, opts EvalOptions) (string, error) {
	if strings.TrimSpace(expression) == "" {
		return "", argError("pass a JavaScript expression such as document.title", "expression is empty")
	}
	var out string
	err := p.do(ctx, func(ctx context.Context) error {
		var (
			res *runtime.RemoteObject
			exc *runtime.ExceptionDetails
			err error
			c   = p.c // the session that holds res
		)
		if opts.Target.IsZero() {
			res, exc, err = p.evalExpression(ctx, expression, opts)
		} else {
			c, res, exc, err = p.evalOnElement(ctx, expression, opts)
		}
		if err != nil {
			return err
		}
		if exc != nil {
			return p.evalException(exc, opts)
		}
		out, err = jsonOf(ctx, c, res)
		return err
	})
	return out, err
}

func (p *Page) evalExpression(ctx context.Context, expr string, opts EvalOptions) (*runtime.RemoteObject, *runtime.ExceptionDetails, error) {
	args := runtime.NewEvaluateArgs(expr).SetObjectGroup(p.group()).SetAwaitPromise(opts.AwaitPromise).
		SetUserGesture(true).SetReplMode(true)
	if opts.SideEffectFree {
		args.SetThrowOnSideEffect(true)
	}
	r, err := p.c.Runtime.Evaluate(ctx, args)
	if err != nil {
		return nil, nil, fmt.Errorf("evaluate: %w", err)
	}
	if r.ExceptionDetails != nil || r.Result.Type != "function" || r.Result.ObjectID == nil {
		return &r.Result, r.ExceptionDetails, nil
	}
	// A function (e.g. "() => document.title"): call it.
	call := runtime.NewCallFunctionOnArgs("function() { return this(); }").SetObjectID(*r.Result.ObjectID).
		SetAwaitPromise(opts.AwaitPromise).SetObjectGroup(p.group()).SetUserGesture(true)
	if opts.SideEffectFree {
		call.SetThrowOnSideEffect(true)
	}
	cr, err := p.c.Runtime.CallFunctionOn(ctx, call)
	if err != nil {
		return nil, nil, fmt.Errorf("call function: %w", err)
	}
	return &cr.Result, cr.ExceptionDetails, nil
}

// evalOnElement calls expr with the target element, in the session of the
// element's frame, which it returns with the result.
func (p *Page) evalOnElement(ctx context.Context, expr string, opts EvalOptions) (*cdp.Client, *runtime.RemoteObject, *runtime.ExceptionDetails, error) {
	e, err := p.Resolve(ctx, opts.Target)
	if err == nil {
		e, err = e.mainWorld(ctx) // the page's world, where its globals are
	}
	if err != nil {
		return nil, nil, nil, err
	}
	call := runtime.NewCallFunctionOnArgs(expr).SetObjectID(e.object).
		SetArguments([]runtime.CallArgument{{ObjectID: &e.object}}).
		SetAwaitPromise(opts.AwaitPromise).SetObjectGroup(p.group()).SetUserGesture(true)
	if opts.SideEffectFree {
		call.SetThrowOnSideEffect(true)
	}
	r, err := e.c.Runtime.CallFunctionOn(ctx, call)
	if err != nil {
		if strings.Contains(err.Error(), "does not evaluate to a function") || strings.Contains(err.Error(), "SyntaxError") {
			return nil, nil, nil, argError("with ref or selector, pass a function that takes the element, e.g. (el) => el.textContent",
				"expression is not a function")
		}
		if isGoneErr(err) {
			return nil, nil, nil, e.gone()
		}
		return nil, nil, nil, fmt.Errorf("call function: %w", err)
	}
	return e.c, &r.Result, r.ExceptionDetails, nil
}

func (p *Page) evalException(exc *runtime.ExceptionDetails, opts EvalOptions) error {
	msg := exceptionText(exc)
	if !opts.Target.IsZero() && strings.HasPrefix(msg, "SyntaxError") {
		return &Error{Code: CodeJSError, Msg: msg,
			Hint: "with ref or selector, pass a function that takes the element, e.g. (el) => el.textContent"}
	}
	if opts.SideEffectFree && strings.Contains(msg, "side-effect") {
		return &Error{Code: CodePermission, Msg: "read-only mode refused the expression: it may change the page",
			Hint: "only side-effect-free code runs in read-only mode; read with properties and document.querySelector (getElementById counts as a possible side effect)"}
	}
	return &Error{Code: CodeJSError, Msg: msg, Hint: "fix the expression; evaluate runs in the page's main frame"}
}

// jsonOf turns a remote value, held by session c, into JSON text.
func jsonOf(ctx context.Context, c *cdp.Client, r *runtime.RemoteObject) (string, error) {
	switch {
	case r.Type == "undefined":
		return "undefined", nil
	case r.UnserializableValue != nil:
		return string(*r.UnserializableValue), nil
	case r.ObjectID == nil:
		if len(r.Value) == 0 {
			return "null", nil
		}
		return readableJSON(r.Value), nil
	}
	cr, err := c.Runtime.CallFunctionOn(ctx, runtime.NewCallFunctionOnArgs(jsFunc("serialize")).
		SetObjectID(*r.ObjectID).SetArguments([]runtime.CallArgument{{ObjectID: r.ObjectID}}).SetReturnByValue(true))
	if err != nil {
		return "", fmt.Errorf("serialize result: %w", err)
	}
	if cr.ExceptionDetails != nil {
		if r.Description != nil {
			return *r.Description, nil
		}
		return "", &Error{Code: CodeJSError, Msg: "the result cannot be serialized: " + exceptionText(cr.ExceptionDetails)}
	}
	var s string
	if err := json.Unmarshal(cr.Result.Value, &s); err != nil {
		return "", fmt.Errorf("serialize result: %w", err)
	}
	return s, nil
}

// readableJSON re-encodes JSON without escaping non-ASCII text or HTML characters,
// which costs a model fewer tokens and reads better.
func readableJSON(raw json.RawMessage) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return string(raw)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return string(raw)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// decodeValue decodes a by-value evaluation result into out.
func decodeValue(r *runtime.EvaluateReply, out any) error {
	if r.ExceptionDetails != nil {
		return &Error{Code: CodeJSError, Msg: exceptionText(r.ExceptionDetails)}
	}
	if len(r.Result.Value) == 0 {
		return nil
	}
	return json.Unmarshal(r.Result.Value, out)
}
