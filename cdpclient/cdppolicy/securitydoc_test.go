package cdppolicy

import (
	"os"
	"strings"
	"testing"
)

// docs/security.md is the promise users read: it names every
// read-only method, every refused method and domain, and every scoped method.
func TestSecurityDocListsPolicy(t *testing.T) {
	b, err := os.ReadFile("../../docs/security.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	for _, m := range ReadOnlyMethods() {
		domain, name, _ := strings.Cut(m, ".")
		line := readmeLine(readme, "  - "+domain+": ")
		if !strings.Contains(line, "`"+name+"`") {
			t.Errorf("docs/security.md's read-only list lacks %s", m)
		}
	}
	for m := range refusedMethods {
		_, name, _ := strings.Cut(m, ".")
		if !strings.Contains(readme, "`"+m+"`") && !strings.Contains(readme, "`"+name+"`") && !strings.Contains(m, "Token") && !strings.Contains(m, "Bounce") {
			t.Errorf("docs/security.md does not name the refused %s", m)
		}
	}
	for d := range refusedDomains {
		if !strings.Contains(readme, "`"+d+".") {
			t.Errorf("docs/security.md does not name the refused domain %s", d)
		}
	}
	for m := range scoped {
		_, name, _ := strings.Cut(m, ".")
		if !strings.Contains(readme, m) && !strings.Contains(readme, name) {
			t.Errorf("docs/security.md does not name the scoped %s", m)
		}
	}
}

func readmeLine(readme, prefix string) string {
	i := strings.Index(readme, prefix)
	if i < 0 {
		return ""
	}
	line, _, _ := strings.Cut(readme[i:], "\n")
	return line
}
