package eval

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/busy"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/runtime"
	"github.com/mafredri/cdp/rpcc"
)

// Options modify Evaluate.
type Options struct {
	// Target, if set, is passed to the expression, which must then be a function
	// such as (el) => el.value.
	Target cdpclient.Target
	// AwaitPromise waits for a returned promise and gives its value.
	AwaitPromise bool
	// SideEffectFree refuses expressions that may change the page (CDP's
	// throwOnSideEffect).
	SideEffectFree bool
}

// Evaluate runs a JavaScript expression in p's main frame and returns its
// value as text: JSON, with what JSON cannot carry written as JavaScript
// prints it or described (see valueReader). Reading the value runs no page
// code. An expression that evaluates to a function is called with no
// arguments; a returned promise is awaited (up to ctx's deadline) unless
// AwaitPromise is false. A throw or rejection is an *Error with CodeJSError
// naming the message and the first stack frame. It runs as the caller's
// script (Door.Run in ModeScript): an expression still running shortly before ctx's
// deadline is stopped, and the answer says so (TIMEOUT).
func Evaluate(ctx context.Context, p *cdpclient.Page, expression string, opts Options) (string, error) {
	if strings.TrimSpace(expression) == "" {
		return "", cdpclient.ArgErrorf("pass a JavaScript expression such as document.title", "expression is empty")
	}
	d := p.Door()
	var out string
	_, err := d.Run(ctx, cdpclient.ModeScript, func(ctx context.Context, c *cdp.Client) error {
		// c is the session that holds res: the page's, or the target
		// element's frame's.
		var (
			res *runtime.RemoteObject
			exc *runtime.ExceptionDetails
			err error
		)
		if opts.Target.IsZero() {
			res, exc, err = evalExpression(ctx, c, d.Group(), expression, opts)
		} else {
			c, res, exc, err = evalOnElement(ctx, p, d.Group(), expression, opts)
		}
		if err == nil && exc == nil && opts.AwaitPromise && res.Subtype != nil && *res.Subtype == "promise" && res.ObjectID != nil {
			res, exc, err = awaitPromise(ctx, c, *res.ObjectID)
		}
		if err != nil {
			return err
		}
		if exc != nil {
			return evalException(exc, opts)
		}
		out, err = readValue(ctx, c, res)
		return err
	})
	var late *busy.ScriptTimeout
	if errors.As(err, &late) {
		hint := "it may wait for something that never happens; return sooner, or raise the call's timeout (--timeout)"
		if late.Stopped {
			hint = "avoid endless loops; split long work (it runs on the page's main thread) or raise the call's timeout (--timeout)"
		}
		return "", &cdpclient.Error{Code: cdpclient.CodeTimeout, Msg: late.Error(), Err: err, Hint: hint}
	}
	if err == nil {
		LearnPasswords(ctx, p)
	}
	return out, err
}

// awaitPromise waits for a promise the page returned and gives its outcome.
func awaitPromise(ctx context.Context, c *cdp.Client, id runtime.RemoteObjectID) (*runtime.RemoteObject, *runtime.ExceptionDetails, error) {
	r, err := c.Runtime.AwaitPromise(ctx, runtime.NewAwaitPromiseArgs(id))
	if err != nil {
		return nil, nil, fmt.Errorf("await promise: %w", err)
	}
	return &r.Result, r.ExceptionDetails, nil
}

// evalExpression evaluates expr in the page's main world with the page
// session's client c, objects in group; a function it evaluates to is called.
func evalExpression(ctx context.Context, c *cdp.Client, group, expr string, opts Options) (*runtime.RemoteObject, *runtime.ExceptionDetails, error) {
	args := runtime.NewEvaluateArgs(expr).SetObjectGroup(group).SetAwaitPromise(opts.AwaitPromise).
		SetUserGesture(!opts.SideEffectFree).SetReplMode(true)
	if opts.SideEffectFree {
		args.SetThrowOnSideEffect(true)
	}
	r, err := c.Runtime.Evaluate(ctx, args)
	if err != nil {
		return nil, nil, fmt.Errorf("evaluate: %w", err)
	}
	if r.ExceptionDetails != nil || r.Result.Type != "function" || r.Result.ObjectID == nil {
		return &r.Result, r.ExceptionDetails, nil
	}
	// A function (e.g. "() => document.title"): call it.
	call := runtime.NewCallFunctionOnArgs("function() { return this(); }").SetObjectID(*r.Result.ObjectID).
		SetAwaitPromise(opts.AwaitPromise).SetObjectGroup(group).SetUserGesture(!opts.SideEffectFree)
	if opts.SideEffectFree {
		call.SetThrowOnSideEffect(true)
	}
	cr, err := c.Runtime.CallFunctionOn(ctx, call)
	if err != nil {
		return nil, nil, fmt.Errorf("call function: %w", err)
	}
	return &cr.Result, cr.ExceptionDetails, nil
}

// evalOnElement calls expr with the target element, in the session of the
// element's frame, which it returns with the result.
func evalOnElement(ctx context.Context, p *cdpclient.Page, group, expr string, opts Options) (*cdp.Client, *runtime.RemoteObject, *runtime.ExceptionDetails, error) {
	e, err := p.Resolve(ctx, opts.Target)
	if err == nil {
		e, err = e.MainWorld(ctx) // the page's world, where its globals are
	}
	if err != nil {
		return nil, nil, nil, err
	}
	obj := e.Object()
	call := runtime.NewCallFunctionOnArgs(expr).SetObjectID(obj).
		SetArguments([]runtime.CallArgument{{ObjectID: &obj}}).
		SetAwaitPromise(opts.AwaitPromise).SetObjectGroup(group).SetUserGesture(!opts.SideEffectFree)
	if opts.SideEffectFree {
		call.SetThrowOnSideEffect(true)
	}
	r, err := e.Client().Runtime.CallFunctionOn(ctx, call)
	if err != nil {
		var re *rpcc.ResponseError
		if errors.As(err, &re) && (strings.Contains(re.Message, "does not evaluate to a function") || strings.Contains(re.Message, "SyntaxError")) {
			return nil, nil, nil, cdpclient.ArgErrorf("with ref or selector, pass a function that takes the element, e.g. (el) => el.textContent",
				"expression is not a function")
		}
		if gone := e.Gone(err); gone != nil {
			return nil, nil, nil, gone
		}
		return nil, nil, nil, fmt.Errorf("call function: %w", err)
	}
	return e.Client(), &r.Result, r.ExceptionDetails, nil
}

func evalException(exc *runtime.ExceptionDetails, opts Options) error {
	msg := cdpclient.ExceptionText(exc)
	if !opts.Target.IsZero() && (strings.HasPrefix(msg, "SyntaxError") || strings.HasPrefix(msg, "ReferenceError") || strings.Contains(msg, "is not a function")) {
		return &cdpclient.Error{Code: cdpclient.CodeJSError, Msg: msg,
			Hint: "with ref or selector, pass a function that takes the element, e.g. (el) => el.textContent"}
	}
	if opts.SideEffectFree && strings.Contains(msg, "side-effect") {
		return &cdpclient.Error{Code: cdpclient.CodePermission, Msg: "read-only mode refused the expression: it may change the page",
			Hint: "only side-effect-free code runs in read-only mode; read with properties and document.querySelector (getElementById counts as a possible side effect)"}
	}
	if at := firstFrame(exc); at != "" {
		msg += " (at " + at + ")"
	}
	return &cdpclient.Error{Code: cdpclient.CodeJSError, Msg: msg, Hint: "fix the expression; evaluate runs in the page's main frame"}
}

// firstFrame is where an exception was thrown: "fn url:line:column", from the
// stack trace or, for a thrown Error, its description.
func firstFrame(exc *runtime.ExceptionDetails) string {
	if exc.Exception != nil && exc.Exception.Description != nil {
		for _, l := range strings.Split(*exc.Exception.Description, "\n")[1:] {
			if l = strings.TrimSpace(l); strings.HasPrefix(l, "at ") {
				return strings.TrimPrefix(l, "at ")
			}
		}
	}
	if exc.StackTrace != nil && len(exc.StackTrace.CallFrames) > 0 {
		f := exc.StackTrace.CallFrames[0]
		name := f.FunctionName
		if name == "" {
			name = "<anonymous>"
		}
		return fmt.Sprintf("%s %s:%d:%d", name, f.URL, f.LineNumber+1, f.ColumnNumber+1)
	}
	return ""
}
