package agentloop

import (
	"strings"
	"testing"
)

func TestMaskKey(t *testing.T) {
	t.Parallel()
	const key = "sk-proj-Abc123Def456Ghi789"
	for _, tc := range []struct{ text, want string }{
		{"Incorrect API key provided: " + key + ".", "Incorrect API key provided: [api key]."},
		{"key sk-proj-Abc1***Ghi789 refused", "key [api key]***Ghi789 refused"}, // an 8-character head
		{"token Def456Ghi789 expired", "token [api key] expired"},
		{"quota exceeded for sk-proj", "quota exceeded for sk-proj"}, // 7 characters: not the key
		{"nothing of it here", "nothing of it here"},
	} {
		if got := maskKey(tc.text, key); got != tc.want {
			t.Errorf("maskKey(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
	if got := maskKey("short key abc echoed", "abc"); got != "short key [api key] echoed" {
		t.Errorf("a short key: %q", got)
	}
	if got := maskKey("text", ""); got != "text" {
		t.Errorf("no key: %q", got)
	}
	if strings.Contains(maskKey("x"+key+key, key), "Abc") {
		t.Error("a repeated key is not masked")
	}
}
