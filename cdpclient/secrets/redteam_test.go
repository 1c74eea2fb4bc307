package secrets

import (
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"strings"
	"testing"
	"unicode/utf16"
)

// The red team's encodings, as they wrote them, and combinations three
// layers deep: each is found and masked, and the text around it stays.
func TestRedTeamEncodings(t *testing.T) {
	t.Parallel()
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	u16 := func(s string) string {
		var b []byte
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u), byte(u>>8))
		}
		return string(b)
	}
	const s = "Ek4Rj2Tm~*_!y"
	for _, c := range []struct{ name, text string }{
		{"after a path of base64's alphabet", "GET https://api.example.com/v1/RWs0UmoyVG1+Kl8heQ== 200"},
		{"'Q'+btoa('x'+secret)", "token=Q" + b64("x"+s) + "&n=1"},
		{"base64 of base64 of base64", "blob " + b64(b64(b64(s))) + " end"},
		{"hex of base64", "id:" + hex.EncodeToString([]byte(b64(s))) + ";"},
		{"base64 of hex", "v=" + b64(hex.EncodeToString([]byte(s))) + "&"},
		{"URL-encoded base64 of JSON", "q=" + url.QueryEscape(b64(`{"pw":"`+s+`"}`)) + "&x=1"},
		{"base64 of UTF-16LE", `{"data":"` + b64(u16(s)) + `"}`},
		{"zero-width characters in JSON", `{"t":"` + strings.Join(strings.Split(s, ""), `\u200b`) + `"}`},
		{"fullwidth letters", "ｐｗ：" + strings.Map(func(r rune) rune { return r + 0xfee0 }, s) + " ok"},
	} {
		r := New()
		r.Add(s)
		got := r.Redact(c.text)
		if !strings.Contains(got, Mask) {
			t.Errorf("%s: %q was not masked", c.name, c.text)
		}
		if strings.Contains(got, "Ek4Rj") {
			t.Errorf("%s: %q", c.name, got)
		}
	}
	if got := New().Redact("GET https://api.example.com/v1/RWs0UmoyVG1+Kl8heQ== 200"); strings.Contains(got, Mask) {
		t.Errorf("an empty registry masked %q", got)
	}
}
