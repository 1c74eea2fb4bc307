package secrets

import (
	"encoding/base64"
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

// candidates are what a prober writes into a page to learn secret: every
// start and end of it (bare, before and after a "…", URL-encoded, in
// base64), pieces of its middle, and a dictionary of whole guesses with
// secret itself among them.
func candidates(secret string, rng *rand.Rand) []string {
	var out []string
	for i := 1; i < len(secret); i++ {
		start, end := secret[:i], secret[i:]
		out = append(out, start, end, start+"…", "…"+end, start+"\n[truncated: 10 more bytes]",
			url.QueryEscape(start), base64.StdEncoding.EncodeToString([]byte(start)), "pw="+url.QueryEscape(start)+"&x=1")
	}
	for i := 0; i+MinLen <= len(secret); i++ {
		out = append(out, secret[i:i+MinLen], secret[i:min(len(secret), i+len(secret)-2)])
	}
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789~*_-!"
	for range 1500 {
		b := []byte(secret)
		b[rng.IntN(len(b))] = letters[rng.IntN(len(letters))]
		out = append(out, string(b))
	}
	return append(out, secret, strings.ToUpper(secret), url.QueryEscape(secret), base64.StdEncoding.EncodeToString([]byte(secret)))
}

// Bob probes with thousands of candidates for alice's values (a password
// she typed key by key, one she filled, a login job's) and for the
// operator's --secret-env value, each in an answer of its own as evaluate
// would return them, and at cuts: nothing of alice's is ever masked in his
// answers, nor does a cut move for it; of the operator's value only the
// whole value is masked, never a start, an end or a piece of it.
func TestProbingLearnsNothing(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(34, 1))
	root := New()
	const env = "env-Tok3n~9f8e7d6c"
	root.Add(env)
	alice, bob := root.Tenant("alice"), root.Tenant("bob")
	// Unlike any value of the other tests' roots, which every Cut in this
	// process consults.
	typed, filled, job := "alice~Typed*Pw_q7Zx", "alice-filled-q7Zx!", "alice.job.Pw-q7Zx"
	alice.Enter(typed, Entry{Typed: true})
	alice.Enter(filled, Entry{})
	alice.Add(job)
	probes := 0
	for _, secret := range []string{typed, filled, job} {
		for _, c := range candidates(secret, rng) {
			probes++
			text := `{"result":` + strconvQuote("x "+c+" y") + `}`
			if got := bob.Redact(text); got != text {
				t.Errorf("bob's answer %q came back %q: it tells him about alice's %q", text, got, secret)
			}
			long := strings.Repeat("z", 200) + c + strings.Repeat("z", 200)
			n := 200 + len(c)/2
			for !utf8.RuneStart(long[n]) {
				n--
			}
			if Cut(long, 200+len(c)/2) != n {
				t.Errorf("a cut in %q moved for alice's value", c)
			}
		}
		if got := alice.Redact("x " + secret + " y"); got != "x "+Mask+" y" {
			t.Errorf("alice's own answer: %q", got)
		}
	}
	for _, c := range candidates(env, rng) {
		probes++
		text := "x " + c + " y"
		got := bob.Redact(text)
		whole := strings.EqualFold(c, env) || c == url.QueryEscape(env) || c == base64.StdEncoding.EncodeToString([]byte(env))
		if whole != (got != text) {
			t.Errorf("bob's probe %q of the --secret-env value came back %q (the whole value: %v)", c, got, whole)
		}
	}
	if probes < 5000 {
		t.Fatalf("only %d probes", probes)
	}
	t.Logf("%d probes", probes)
}

// The same holds for values entered into a page that showed them: another
// tenant's exemption and masking alike say nothing to bob.
func TestProbingPageWordsLearnsNothing(t *testing.T) {
	t.Parallel()
	root := New()
	alice, bob := root.Tenant("alice"), root.Tenant("bob")
	alice.Enter("wrong", Entry{Old: []string{"Wrong password? Reset it"}})
	for _, c := range []string{"wrong", "Wrong password? Reset it", "you typed wrong", `"wrong"`, "pw=wrong"} {
		if got := bob.Redact(c); got != c {
			t.Errorf("bob's %q came back %q", c, got)
		}
	}
	if got := alice.Redact("you typed wrong"); got != "you typed "+Mask {
		t.Errorf("alice's echo: %q", got)
	}
}
