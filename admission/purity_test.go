package admission

import (
	"go/ast"
	"strings"
	"testing"

	"mafia/internal/puritytest"
)

// TestPurity_RulesStartNoGoroutineAndReadNothing: the package is pure
// (admission.go): no clock, no I/O, no goroutines, no global random
// source (internal/puritytest). Its one exception is context, imported for
// the Policy's signature only: the package names context.Context and
// calls nothing of it, so it never waits on a deadline or a cancel. CI's
// race step leaves the package out on the strength of this test (.ci/run).
func TestPurity_RulesStartNoGoroutineAndReadNothing(t *testing.T) {
	problems, err := puritytest.Check("..", "mafia/admission", "mafia/engine")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		if strings.HasSuffix(p, `mafia/admission imports "context": it implies goroutines and deadlines`) {
			continue // checked below: the type only
		}
		t.Error(p)
	}
	fset, files, err := puritytest.Source(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		local := ""
		for _, spec := range f.Imports {
			if spec.Path.Value == `"context"` {
				local = "context"
				if spec.Name != nil {
					local = spec.Name.Name
				}
			}
		}
		if local == "" {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == local && sel.Sel.Name != "Context" {
				t.Errorf("%s: admission uses context.%s: the package may name the type context.Context only", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
	}
}
