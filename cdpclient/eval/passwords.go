package eval

import (
	"context"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
)

// learnWait bounds reading the page's password fields after the code ran.
const learnWait = 500 * time.Millisecond

// passwordFields reads the values of the page's password fields (and those
// of its open shadow roots and same-origin frames) in cdpmcp's world, where
// the page's own code cannot see the call.
const passwordFields = `(() => {
  const out = [];
  const secret = (el) => el.type === 'password' || /^(current-password|new-password|one-time-code)$/.test(el.autocomplete);
  const visit = (root) => {
    for (const el of root.querySelectorAll('input')) if (secret(el) && el.value.length >= 4) out.push(el.value);
    for (const h of root.querySelectorAll('*')) { const sr = (globalThis.__cdpmcp && globalThis.__cdpmcp.shadowOf ? globalThis.__cdpmcp.shadowOf(h) : h.shadowRoot); if (sr) visit(sr); }
    for (const f of root.querySelectorAll('iframe, frame')) {
      try { if (f.contentDocument) visit(f.contentDocument); } catch (e) { /* another origin's */ }
    }
  };
  visit(document);
  return out;
})()`

// LearnPasswords adds what the page's password fields hold to its context's
// secrets, before an answer built by code run in the page (evaluate, the cdp
// passthrough) is given out: a password the person typed into their own
// browser, or one the browser filled in, is then redacted there as one
// cdpmcp typed is. Code that transforms a value still reads it (the
// documented limit of redaction); an echo of it does not.
func LearnPasswords(ctx context.Context, p *cdpclient.Page) {
	// A page the code sent elsewhere (a navigation under way) answers
	// nothing until it commits: the answer does not wait for it.
	ctx, cancel := context.WithTimeout(ctx, learnWait)
	defer cancel()
	var vals []string
	if err := cdpclient.ReadInWorld(ctx, p, passwordFields, &vals); err != nil {
		return
	}
	reg := p.Context().Secrets()
	for _, v := range vals {
		reg.Add(v)
	}
}
