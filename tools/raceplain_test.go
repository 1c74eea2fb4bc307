package tools

import (
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// TestRacePlainRunsTheTestsBuiltWithoutRace checks that every test in a file
// of this package built only without the race detector (//go:build !race)
// is one make test runs from its plain queue: the race lane does not build
// it, and the queue runs only the tests RACE_PLAIN names for ./tools, so a
// test left out would never run.
func TestRacePlainRunsTheTestsBuiltWithoutRace(t *testing.T) {
	mk, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^RACE_PLAIN := \./tools=(\S+)`).FindSubmatch(mk)
	if m == nil {
		t.Fatal("the Makefile's RACE_PLAIN names no tests of ./tools")
	}
	plain, err := regexp.Compile(strings.ReplaceAll(string(m[1]), "$$", "$"))
	if err != nil {
		t.Fatalf("RACE_PLAIN's ./tools pattern: %v", err)
	}
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var tagged int
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		if !withoutRaceOnly(f.Comments, f.Package) {
			continue
		}
		tagged++
		for _, name := range testNames(f) {
			if !plain.MatchString(name) {
				t.Errorf("%s is built only without -race, but RACE_PLAIN does not name it: make test would never run it", name)
			}
		}
	}
	if tagged == 0 {
		t.Fatal("no test file of tools is built only without -race: this test would check nothing (it goes with the last such file)")
	}
}

// withoutRaceOnly reports whether a file's build constraint (a //go:build
// line before its package clause) keeps it out of a race build only.
func withoutRaceOnly(comments []*ast.CommentGroup, pkg token.Pos) bool {
	for _, g := range comments {
		if g.Pos() > pkg {
			break
		}
		for _, c := range g.List {
			if !constraint.IsGoBuild(c.Text) {
				continue
			}
			expr, err := constraint.Parse(c.Text)
			if err != nil {
				continue
			}
			with := func(race bool) func(string) bool {
				return func(tag string) bool {
					return tag == runtime.GOOS || tag == runtime.GOARCH || (race && tag == "race")
				}
			}
			return expr.Eval(with(false)) && !expr.Eval(with(true))
		}
	}
	return false
}

// testNames lists the Test functions a file declares.
func testNames(f *ast.File) []string {
	var names []string
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Test") {
			names = append(names, fn.Name.Name)
		}
	}
	return names
}
