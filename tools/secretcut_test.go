package tools

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
)

var nextFrom = regexp.MustCompile(`continue with from: (\d+)`)

// A page that shows a password thousands of times, past getContent's
// 50,000-byte cut: no part of the answer ends with the start of it, and the
// next part, from where the first said, starts with none of its rest.
func TestGetContentCutKeepsSecretsWhole(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	const pw = "Cut~Me*Not_42!"
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/secrets/long")}))
	mustOK(t, callTool(t, c, "fill", map[string]any{"selector": "#pw", "value": pw}))
	for _, format := range []string{"text", "markdown", "html"} {
		first := callTool(t, c, "getContent", map[string]any{"format": format})
		m := nextFrom.FindStringSubmatch(first.text)
		if first.isError || m == nil {
			t.Fatalf("%s: the first part was not cut: %.300s", format, first.text)
		}
		from, _ := strconv.Atoi(m[1])
		head := first.text[:strings.Index(first.text, "\n[truncated")]
		rest := callTool(t, c, "getContent", map[string]any{"format": format, "from": from})
		for name, part := range map[string]string{"first": head, "next": rest.text} {
			if strings.Contains(part, "Cut~Me") || strings.Contains(part, "e*Not") || strings.Contains(part, "Not_42") {
				t.Errorf("%s, %s part holds the password", format, name)
			}
		}
		if !strings.HasSuffix(head, "-") && !strings.HasSuffix(head, secrets.Mask) && !strings.HasSuffix(head, "\\-") {
			t.Errorf("%s: the first part ends in a piece of the password: …%s", format, head[max(0, len(head)-40):])
		}
		if !strings.HasPrefix(rest.text, secrets.Mask) && !strings.HasPrefix(rest.text, "-") && !strings.HasPrefix(rest.text, "\\-") {
			t.Errorf("%s: the next part starts with a piece of the password: %.40s…", format, rest.text)
		}
	}
}
