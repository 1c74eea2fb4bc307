package main

import (
	"context"
	"log/slog"

	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
)

// redactingHandler hides remembered secrets in log records: the message and
// every attribute, whatever its kind, since a URL, an error or a page's
// console line can carry what was typed. Logs are the operator's: they hide
// every tenant's values and the bearer tokens (RedactAll).
type redactingHandler struct {
	next slog.Handler
	reg  *secrets.Registry
}

func (h redactingHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.next.Enabled(ctx, l)
}

func (h redactingHandler) Handle(ctx context.Context, r slog.Record) error {
	if h.reg.LenAll() == 0 {
		return h.next.Handle(ctx, r)
	}
	out := slog.NewRecord(r.Time, r.Level, h.reg.RedactAll(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.redactAttr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h redactingHandler) redactAttr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindGroup:
		attrs := v.Group()
		out := make([]any, len(attrs))
		for i, g := range attrs {
			out[i] = h.redactAttr(g)
		}
		return slog.Group(a.Key, out...)
	case slog.KindString, slog.KindAny:
		return slog.String(a.Key, h.reg.RedactAll(v.String()))
	}
	return a
}

func (h redactingHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	out := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		out[i] = h.redactAttr(a)
	}
	return redactingHandler{next: h.next.WithAttrs(out), reg: h.reg}
}

func (h redactingHandler) WithGroup(name string) slog.Handler {
	return redactingHandler{next: h.next.WithGroup(name), reg: h.reg}
}
