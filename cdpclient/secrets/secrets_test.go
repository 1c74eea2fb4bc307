package secrets

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/internal/secrettest"
)

// Every secret of the table is found in every encoding, between other
// text, and what is around it stays.
func TestRedactFindsEveryEncoding(t *testing.T) {
	t.Parallel()
	for _, secret := range secrettest.Secrets() {
		r := New()
		r.Add(secret)
		for _, e := range secrettest.Encodings {
			text := `{"before":"<<",` + e.Enc(secret) + `,">>"}`
			got := r.Redact(text)
			if l := secrettest.Leaks(got, secret); len(l) > 0 || !strings.Contains(got, Mask) {
				t.Errorf("%q in %s:\n text %s\n  got %s\n leaks %v", secret, e.Name, text, got, l)
				continue
			}
			if !strings.HasPrefix(got, `{"before":"<<",`) || !strings.HasSuffix(got, `,">>"}`) {
				t.Errorf("%q in %s: the text around it changed: %s", secret, e.Name, got)
			}
		}
	}
}

// A text that holds no secret comes back as it was, whatever it holds.
func TestRedactLeavesOtherText(t *testing.T) {
	t.Parallel()
	r := New()
	for _, s := range secrettest.Secrets() {
		r.Add(s)
	}
	for _, text := range []string{
		`{"act":"click","ref":"12","ok":true,"delta":{"url":"/login?user=ann%40example.com&next=%2Fhome","text":[["17","Form submitted"]]},"net":[{"u":"/api/session","s":200}]}`,
		"# Welcome\n\nThis \\*page\\* has *Markdown* &amp; HTML &lt;b&gt; and a base64 blob aGVsbG8gd29ybGQ=.",
		`<input value="jane&#64;example.com"> \u00e9t\u00e9 caf%C3%A9`,
		"",
	} {
		if got := r.Redact(text); got != text {
			t.Errorf("Redact(%q) = %q", text, got)
		}
	}
}

// The longest value wins where values overlap, and nothing of either is left.
func TestRedactOverlapping(t *testing.T) {
	t.Parallel()
	r := New()
	r.Add("secret")
	r.Add("secret-longer")
	if got := r.Redact("a secret-longer b secret c"); got != "a [secret] b [secret] c" {
		t.Errorf("got %q", got)
	}
	r.Add("abc") // too short: ignored
	if r.Len() != 2 || r.Redact("abc and abcd") != "abc and abcd" {
		t.Errorf("a short value was kept: %d %q", r.Len(), r.Redact("abc and abcd"))
	}
	var nilReg *Registry
	nilReg.Add("whatever")
	if nilReg.Redact("whatever") != "whatever" || nilReg.Len() != 0 || nilReg.RedactValue("whatever") != "whatever" {
		t.Error("a nil registry changed text")
	}
}

// A cut never splits a root's value (the operator's, every tenant hides
// it): Cut stops before one.
func TestCutKeepsRootValuesWhole(t *testing.T) {
	t.Parallel()
	r := New()
	const pw = "Sup3r~Secret*Pass_word-root"
	r.Add(pw)
	text := strings.Repeat("x", 100) + secrettest.FormEncode(pw) + strings.Repeat("y", 100)
	at := strings.Index(text, "Sup3r")
	for _, n := range []int{at + 1, at + 10, at + len(secrettest.FormEncode(pw)) - 1} {
		if got := Cut(text, n); got != at {
			t.Errorf("Cut at %d = %d, want the secret's start %d", n, got, at)
		}
	}
	if got := Cut(text, at); got != at {
		t.Errorf("Cut at the secret's start = %d", got)
	}
	if got := Cut(text, 50); got != 50 {
		t.Errorf("Cut away from the secret = %d", got)
	}
	// Cut knows the roots through weak pointers (a registry the server let
	// go is forgotten): r must outlive the cuts, or the collector may take
	// it first and the test see a cut that knows no root.
	runtime.KeepAlive(r)
}

// A tenant's value is not known where a cut is made (a cut knows no
// caller), so the cut may split it; the redactor of that tenant masks the
// part the cut left on either side, also inside JSON, and nothing of it is
// masked for another tenant. A "…" a page wrote itself is no cut: the part
// before it stays.
func TestCutsMaskWhatTheyLeft(t *testing.T) {
	t.Parallel()
	root := New()
	alice, bob := root.Tenant("alice"), root.Tenant("bob")
	const pw = "Cut~Me*Not_42!-alice"
	alice.Add(pw)
	text := strings.Repeat("lorem ipsum ", 50) + "pw=" + secrettest.FormEncode(pw) + "&next=" + strings.Repeat(" dolor sit", 50)
	at := strings.Index(text, "Cut")
	for _, n := range []int{at + 1, at + 5, at + 12} {
		cut := Cut(text, n)
		if cut != n {
			t.Fatalf("Cut at %d moved to %d for a tenant's value", n, cut)
		}
		head, rest := text[:cut]+"…", text[cut:]
		feedback := `{"act":"click","ok":true,"delta":{"text":[["3",` + strconvQuote(head) + `]]}}`
		note := `{"text":` + strconvQuote(text[:cut]+"\n[truncated: 99 more bytes]") + `}`
		for name, out := range map[string]string{"head": alice.Redact(head), "rest": alice.Redact(rest), "feedback": alice.Redact(feedback),
			"structured": alice.Redact(note)} {
			if strings.Contains(out, text[at:n]) && n-at >= 3 || strings.Contains(out, text[n:at+15]) || !strings.Contains(out, Mask) {
				t.Errorf("cut at %d, %s: %q", n, name, out[max(0, strings.Index(out, "pw=")-5):])
			}
		}
		if got := bob.Redact(head); got != head {
			t.Errorf("bob's redactor masked alice's value at a cut: %q", got[len(got)-30:])
		}
	}
	for _, own := range []string{"the password is Cut%7EMe%2ANot…", "Cut~Me*Not_4…", "…Me*Not_42!-alice"} {
		if got := alice.Redact(own); got != own {
			t.Errorf("a page's own … masked a part: %q → %q", own, got)
		}
	}
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Structured answers are redacted in every string, keys too, and keep their
// shape and numbers.
func TestRedactValue(t *testing.T) {
	t.Parallel()
	r := New()
	r.Add("hunter2~x")
	in := map[string]any{"summary": "signed in with hunter2~x", "n": 12345678901234567, "list": []any{"hunter2%7Ex", true},
		"hunter2~x": "key", "raw": []byte(`{"q":"hunter2%7Ex"}`)}
	got := r.RedactValue(in).(map[string]any)
	if got["summary"] != "signed in with "+Mask || got["list"].([]any)[0] != Mask || got[Mask] != "key" || got["n"].(interface{ String() string }).String() != "12345678901234567" {
		t.Errorf("RedactValue = %#v", got)
	}
	if in["summary"] != "signed in with hunter2~x" {
		t.Error("the value given was changed")
	}
	// A tenant that knows nothing itself still hides its root's values.
	root := New()
	root.Add("env-value~1")
	if got := root.Tenant("t").RedactValue(map[string]any{"v": "x env-value~1"}).(map[string]any); got["v"] != "x "+Mask {
		t.Errorf("a tenant's RedactValue left its root's value: %#v", got)
	}
}

func BenchmarkRedact(b *testing.B) {
	for _, c := range []struct {
		name    string
		secrets []string
	}{
		{"anchored", []string{"hunter2-pw", "tok_1234567890", "correct horse battery staple"}},
		{"punctuation only", []string{"hunter2-pw", "!@#$%^&*()"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			r := New()
			for _, v := range c.secrets {
				r.Add(v)
			}
			text := strings.Repeat(`{"act":"click","ref":"12","ok":true,"delta":{"text":[["17","Form submitted"]]},"net":[{"u":"/a?b=c%20d&e=f","s":200}]} `, 40)
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				_ = r.Redact(text)
			}
		})
	}
}

// What a page sees while cdpmcp types a value key by key (two thirds of it
// and more) is masked as far as it goes; a shorter start, or a word that
// only begins like it, stays; so does the start of a short value (a word).
// The start of a value cdpmcp did not type (filled at once, a --secret-env
// value) is never masked: only whole values are.
func TestRedactTypedStarts(t *testing.T) {
	t.Parallel()
	r := New()
	r.Enter("hunter2~pass", Entry{Typed: true})
	for in, want := range map[string]string{
		"/strength?pw=hunter2%7Epa&x=1": "/strength?pw=" + Mask + "&x=1",
		"/strength?pw=hunter2%7E":       "/strength?pw=" + Mask,
		"/strength?pw=hunter2%7Epass":   "/strength?pw=" + Mask,
		"/strength?pw=hunter":           "/strength?pw=hunter",
		"the hunters":                   "the hunters",
	} {
		if got := r.Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
	short := New()
	short.Enter("admin1", Entry{Typed: true})
	for in, want := range map[string]string{"administrator": "administrator", "admin1": Mask} {
		if got := short.Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
	for _, whole := range []func(r *Registry, v string){
		func(r *Registry, v string) { r.Add(v) },
		func(r *Registry, v string) { r.Enter(v, Entry{}) },
	} {
		r := New()
		whole(r, "hunter2~pass")
		for in, want := range map[string]string{"pw=hunter2%7Epa": "pw=hunter2%7Epa", "pw=hunter2%7Epass": "pw=" + Mask} {
			if got := r.Redact(in); got != want {
				t.Errorf("a value not typed key by key: Redact(%q) = %q, want %q", in, got, want)
			}
		}
	}
}

// A value typed key by key is a secret while it grows; typed again after
// the field was cleared, the earlier one is kept.
func TestTyping(t *testing.T) {
	t.Parallel()
	r := New()
	for _, v := range []string{"s", "s3", "s3c", "s3cr", "s3cre", "s3cret!"} {
		r.Typing("p1", v)
	}
	if got := r.Redact("pw=s3cret%21"); got != "pw="+Mask {
		t.Errorf("after typing: %q", got)
	}
	r.Typing("p1", "s3cre") // a Backspace: replaced
	r.Typing("p1", "s3cret?")
	r.Typing("p1", "x")
	r.Typing("p1", "xyzzy9")
	if got := r.Redact("s3cret? xyzzy9"); got != Mask+" "+Mask {
		t.Errorf("after typing anew: %q", got)
	}
}
