package secrets

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// A secret is found in every spelling it takes where it reappears.
func TestRedactSpellings(t *testing.T) {
	r := New()
	const pw = `pä"ss<w>&rd 😀 1/2`
	r.Add(pw)
	r.Add("abc") // too short: ignored
	if r.Len() != 1 {
		t.Fatalf("Len() = %d, want 1", r.Len())
	}
	goJSON, _ := json.Marshal(pw)
	twice, _ := json.Marshal(string(goJSON))
	for _, text := range []string{
		"plain " + pw + " end",
		`{"value":` + string(goJSON) + `}`,
		`{"result":` + string(twice) + `}`,
		"pw=" + url.QueryEscape(pw) + "&x=1",
		"/path/" + url.PathEscape(pw),
		`<input value="` + strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(pw, "&", "&amp;"), "<", "&lt;"), ">", "&gt;"), `"`, "&#34;"),
		`{"v":"p\u00e4\"ss\u003cw\u003e\u0026rd \ud83d\ude00 1/2"}`,
		`{"v":"p\u00E4\"ss<w>&rd \uD83D\uDE00 1/2"}`,
	} {
		got := r.Redact(text)
		if strings.Contains(got, "ss<w") || strings.Contains(got, `ss\u003cw`) || strings.Contains(got, "ss%3Cw") || strings.Contains(got, "ss&lt;w") || !strings.Contains(got, Mask) {
			t.Errorf("Redact(%q) = %q", text, got)
		}
	}
	if got := r.Redact("abc and abcd"); got != "abc and abcd" {
		t.Errorf("a short value was redacted: %q", got)
	}
	var nilReg *Registry
	nilReg.Add("whatever")
	if nilReg.Redact("whatever") != "whatever" || nilReg.Len() != 0 {
		t.Error("a nil registry changed text")
	}
}

// The longest value wins where values overlap, and nothing of either is left.
func TestRedactOverlapping(t *testing.T) {
	r := New()
	r.Add("secret")
	r.Add("secret-longer")
	if got := r.Redact("a secret-longer b secret c"); got != "a [secret] b [secret] c" {
		t.Errorf("got %q", got)
	}
}

func BenchmarkRedact(b *testing.B) {
	r := New()
	for _, v := range []string{"hunter2-pw", "tok_1234567890", "correct horse battery staple"} {
		r.Add(v)
	}
	text := strings.Repeat(`{"act":"click","ref":"12","ok":true,"delta":{"text":[["17","Form submitted"]]}} `, 40)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		_ = r.Redact(text)
	}
}
