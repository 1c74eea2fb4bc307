package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/tools"
)

// docs/flags.md is where a user looks a flag up: it names every command and
// every flag of every command (with its environment variable where it has
// one), so a new flag cannot ship undocumented.
func TestFlagsDocListsEveryFlag(t *testing.T) {
	b, err := os.ReadFile("../../docs/flags.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, cmd := range newApp().Commands {
		if !strings.Contains(doc, "`cdpmcp "+cmd.Name) {
			t.Errorf("docs/flags.md does not list the command %q", cmd.Name)
		}
		for _, f := range cmd.Flags {
			name := f.Names()[0]
			if !strings.Contains(doc, "`--"+name+"`") && !strings.Contains(doc, "`--"+name+" ") {
				t.Errorf("docs/flags.md does not list %s's flag --%s", cmd.Name, name)
			}
			if ev, ok := f.(interface{ GetEnvVars() []string }); ok {
				for _, v := range ev.GetEnvVars() {
					if !strings.Contains(doc, "`"+v+"`") {
						t.Errorf("docs/flags.md does not name --%s's variable %s", name, v)
					}
				}
			}
		}
	}
}

// The README a newcomer reads is short, links its docs pages, and every link
// to a docs page names a file that exists.
func TestREADMELinksDocs(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	if n := strings.Count(readme, "\n"); n > 200 {
		t.Errorf("README.md has %d lines; keep it to one read and put the rest in docs/", n)
	}
	for _, page := range []string{"tools", "capabilities", "agent", "jobs", "audits", "security", "flags", "development"} {
		link := "docs/" + page + ".md"
		if !strings.Contains(readme, "("+link) {
			t.Errorf("README.md does not link %s", link)
		}
		if _, err := os.Stat("../../" + link); err != nil {
			t.Errorf("README.md links %s: %v", link, err)
		}
		if b, err := os.ReadFile("../../" + link); err == nil && strings.Contains(strings.ToLower(string(b)), "seed 0") {
			t.Errorf("%s speaks of seeds, which mean nothing to a user", link)
		}
	}
	if strings.Contains(strings.ToLower(readme), "seed 0") {
		t.Error("README.md speaks of seeds, which mean nothing to a user")
	}
}

// The README names real tools: those of its first paragraph and its table
// of ten are in the catalogue.
func TestREADMENamesRealTools(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	intro, _, _ := strings.Cut(readme, "\n## ")
	names := regexp.MustCompile("`([A-Za-z_.]+)`").FindAllStringSubmatch(intro, -1)
	names = append(names, regexp.MustCompile("(?m)^\\| `([A-Za-z_.]+)` \\|").FindAllStringSubmatch(readme, -1)...)
	if len(names) < 20 {
		t.Fatalf("README.md names %d tools; want its first paragraph's and the table's", len(names))
	}
	for _, m := range names {
		if !slices.Contains(tools.ToolNames(), m[1]) {
			t.Errorf("README.md names a tool %q that cdpmcp has not", m[1])
		}
	}
}

// The README's install section says what works today before what works
// after the first release, and how to run the npm packages built here.
func TestREADMEInstallOrder(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, install, _ := strings.Cut(string(b), "## Install\n")
	install, _, _ = strings.Cut(install, "\n## ")
	order := []string{"make run", "npx -y --package=./dist/npm/cdpmcp-linux-x64-", "npx -y cdpmcp serve", "go install", "linux_amd64"}
	at := 0
	for _, s := range order {
		i := strings.Index(install[at:], s)
		if i < 0 {
			t.Fatalf("README.md's install section lacks %q after %q", s, install[:at])
		}
		at += i
	}
}
