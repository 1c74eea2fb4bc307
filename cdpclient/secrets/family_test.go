package secrets

import (
	"net/url"
	"testing"
)

// What only the operator reads hides the whole family's values and the
// concealed bearer tokens (as written, URL- and JSON-escaped); a tenant's
// answers hide its own values and the root's only, never a token.
func TestRedactAllAndConceal(t *testing.T) {
	t.Parallel()
	root := New()
	root.Add("env-secret-1")
	root.Conceal(`tok"en/1`)
	alice, bob := root.Tenant("alice"), root.Tenant("bob")
	alice.Add("alice-pw-1")
	bob.Add("bob-pw-22")
	log := `env-secret-1 alice-pw-1 bob-pw-22 tok"en/1 ` + url.QueryEscape(`tok"en/1`) + ` tok\"en/1`
	if got, want := root.RedactAll(log), "[secret] [secret] [secret] [secret] [secret] [secret]"; got != want {
		t.Errorf("RedactAll = %q, want %q", got, want)
	}
	if got := alice.RedactAll(log); got != root.RedactAll(log) || root.LenAll() < 3 {
		t.Errorf("a tenant's RedactAll differs from its root's: %q", got)
	}
	if got := alice.Redact(log); got != `[secret] [secret] bob-pw-22 tok"en/1 `+url.QueryEscape(`tok"en/1`)+` tok\"en/1` {
		t.Errorf("alice's answer: %q", got)
	}
	if got := bob.Redact("alice-pw-1"); got != "alice-pw-1" {
		t.Errorf("bob's answer: %q", got)
	}
}
