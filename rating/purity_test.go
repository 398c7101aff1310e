package rating

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPackageIsPure: the package computes on values only (doc.go): it may
// import nothing that reads a clock, does I/O or starts goroutines, and it
// starts none.
func TestPackageIsPure(t *testing.T) {
	// mafia/engine is pure too (its own test says so): FromLog reads its log.
	allowed := map[string]bool{"errors": true, "fmt": true, "math": true, "sort": true, "strings": true, "mafia/engine": true}
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range f.Imports {
			if p, _ := strconv.Unquote(im.Path.Value); !allowed[p] {
				t.Errorf("%s imports %s", name, p)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if g, ok := n.(*ast.GoStmt); ok {
				t.Errorf("%s: a go statement at %v", name, fset.Position(g.Pos()))
			}
			if c, ok := n.(*ast.CallExpr); ok {
				if s, ok := c.Fun.(*ast.SelectorExpr); ok {
					if x, ok := s.X.(*ast.Ident); ok && x.Name == "fmt" && !strings.HasPrefix(s.Sel.Name, "Sprint") && s.Sel.Name != "Errorf" {
						t.Errorf("%s: fmt.%s writes", name, s.Sel.Name)
					}
				}
			}
			return true
		})
	}
}
