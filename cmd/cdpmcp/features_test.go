package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestFeaturesRegisteredByCmd fails when a feature sets itself up on every
// browser from an init (cdpclient's AddHooks, OnPageEvents or
// OnSessionCalls called from a package's init), or when a package under
// cdpclient/ offers a Register that registerFeatures does not call: the
// program, not an import, says which features run.
func TestFeaturesRegisteredByCmd(t *testing.T) {
	const root = "../.."
	called := map[string]bool{}
	wiring := parseFile(t, "features.go")
	ast.Inspect(wiring, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "Register" {
			if id, ok := sel.X.(*ast.Ident); ok {
				called[id.Name] = true
			}
		}
		return true
	})
	var offered []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "bin" || d.Name() == "node_modules") && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f := parseFile(t, path)
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Body == nil {
				continue
			}
			rel, _ := filepath.Rel(root, path)
			switch fn.Name.Name {
			case "init":
				if setsUpFeature(fn.Body) {
					t.Errorf("%s: an init sets a feature up on every browser; give the package a Register and call it from registerFeatures (cmd/cdpmcp/features.go)", rel)
				}
			case "Register":
				if strings.HasPrefix(rel, "cdpclient"+string(filepath.Separator)) {
					offered = append(offered, f.Name.Name)
					if !called[f.Name.Name] {
						t.Errorf("%s: %s.Register is never called by registerFeatures (cmd/cdpmcp/features.go)", rel, f.Name.Name)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(offered) == 0 {
		t.Errorf("found no feature's Register under %s/cdpclient: the walk looked in the wrong place", root)
	}
}

// setsUpFeature reports whether body calls one of cdpclient's registrations
// of a feature's hooks or listeners.
func setsUpFeature(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return !found
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "cdpclient" {
				switch sel.Sel.Name {
				case "AddHooks", "OnPageEvents", "OnSessionCalls":
					found = true
				}
			}
		}
		return !found
	})
	return found
}

func parseFile(t *testing.T, path string) *ast.File {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
