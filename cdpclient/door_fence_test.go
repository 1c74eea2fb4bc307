package cdpclient

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// The door (Page.Door, BrowserContext.Door) is for the feature packages
// inside cdpclient/: no package elsewhere in the module calls .Door(), tests
// included. A package outside that needs what only the door gives goes
// through an exported function of cdpclient or of a feature (ReadInWorld).
func TestNoDoorOutsideCdpclient(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path == filepath.Join(root, "cdpclient") || path != root &&
				(strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "vendor" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		files++
		calls, err := doorCalls(path, nil)
		if err != nil {
			return err
		}
		for _, at := range calls {
			rel, _ := filepath.Rel(root, at.Filename)
			t.Errorf("%s:%d calls .Door(): only packages under cdpclient/ open the door; use an exported function of cdpclient or of a feature package instead",
				rel, at.Line)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("walked %d Go files outside cdpclient/ under %s: not the module", files, root)
	}
}

// TestDoorCallsFound checks the fence's finder on a file that opens both
// doors and on one that names a Door without calling it.
func TestDoorCallsFound(t *testing.T) {
	src := `package x
func f(p *cdpclient.Page, bc *cdpclient.BrowserContext) {
	d := p.Door()
	_ = bc.Door().Owns
	var _ cdpclient.Door = d
	_ = p.Door
}`
	calls, err := doorCalls("x.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 2 || calls[0].Line != 3 || calls[1].Line != 4 {
		t.Fatalf("found .Door() calls at %v, want lines 3 and 4", calls)
	}
}

// doorCalls are the positions of the .Door() calls in a Go file (src, or
// the file at path when src is nil).
func doorCalls(path string, src []byte) ([]token.Position, error) {
	fset := token.NewFileSet()
	var text any // a nil []byte would be read as an empty file
	if src != nil {
		text = src
	}
	f, err := parser.ParseFile(fset, path, text, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var out []token.Position
	ast.Inspect(f, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && len(call.Args) == 0 {
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Door" {
				out = append(out, fset.Position(call.Pos()))
			}
		}
		return true
	})
	return out, nil
}
