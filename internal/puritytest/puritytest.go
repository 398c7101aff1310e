// Package puritytest checks that a package is pure: no clock, no I/O, no
// goroutines, no global random source. The engine's, the bots' and the
// pure packages' tests call it on their own source; it parses source and
// runs nothing, and must not be imported by non-test code.
package puritytest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// PureImports are the only packages a pure package may import: computation on
// values, nothing that reaches the outside world or the scheduler.
var PureImports = map[string]bool{
	"cmp":          true,
	"errors":       true,
	"fmt":          true, // Sprintf and Errorf only: see impureCalls
	"maps":         true,
	"math":         true,
	"math/bits":    true,
	"slices":       true,
	"sort":         true,
	"strconv":      true,
	"strings":      true,
	"unicode/utf8": true,
	"mafia/rng":    true, // the seeded source; checked by the same rules below
}

// ForbiddenImports are named so that a failure says why.
var ForbiddenImports = map[string]string{
	"time":            "reads a clock (time arrives as the Next command)",
	"os":              "does I/O",
	"io":              "does I/O",
	"io/fs":           "does I/O",
	"net":             "does I/O",
	"net/http":        "does I/O",
	"sync":            "implies goroutines (one room owns a game)",
	"sync/atomic":     "implies goroutines (one room owns a game)",
	"math/rand":       "a global random source (randomness is a recorded seed)",
	"math/rand/v2":    "a global random source (randomness is a recorded seed)",
	"crypto/rand":     "an unseeded random source",
	"unsafe":          "breaks the value semantics replay relies on",
	"runtime":         "depends on the scheduler",
	"syscall":         "does I/O",
	"reflect":         "not needed by rules; hides what state is read",
	"log":             "does I/O",
	"log/slog":        "does I/O",
	"embed":           "reads files at build time",
	"C":               "cgo",
	"context":         "implies goroutines and deadlines",
	"os/exec":         "runs processes",
	"path/filepath":   "touches the file system",
	"encoding/gob":    "not needed by rules",
	"testing":         "test code belongs in _test.go files",
	"runtime/debug":   "depends on the runtime",
	"internal/poll":   "does I/O",
	"hash/maphash":    "randomly seeded per process",
	"crypto/subtle":   "not needed by rules",
	"os/signal":       "does I/O",
	"plugin":          "loads code at run time",
	"debug/buildinfo": "reads files",
}

// ImpureCalls are functions of allowed packages that write or read the
// outside world anyway.
var ImpureCalls = map[string]bool{
	"fmt.Print": true, "fmt.Printf": true, "fmt.Println": true,
	"fmt.Fprint": true, "fmt.Fprintf": true, "fmt.Fprintln": true,
	"fmt.Scan": true, "fmt.Scanf": true, "fmt.Scanln": true,
	"fmt.Fscan": true, "fmt.Fscanf": true, "fmt.Fscanln": true,
}

// Check parses the non-test source of pkg (a project package, "mafia/…"),
// and that of every project package it imports, and returns what breaks
// purity: an import outside PureImports and extra, a go statement, a
// select, a channel, or a print. root is the module's root directory
// (relative to the test's package, "..").
func Check(root, pkg string, extra ...string) ([]string, error) {
	allowed := map[string]bool{}
	for _, e := range extra {
		allowed[e] = true
	}
	return walk(root, pkg, func(p, dir string) ([]string, []string, error) { return checkPackage(p, dir, allowed) })
}

// walk runs check on pkg and on every project package it imports, each
// once (dir: the package's folder under root), following the imports
// check returns, and gathers what each breaks.
func walk(root, pkg string, check func(p, dir string) (imports, problems []string, err error)) ([]string, error) {
	checked := map[string]bool{}
	queue := []string{pkg}
	var all []string
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if checked[p] {
			continue
		}
		checked[p] = true
		imports, problems, err := check(p, filepath.Join(root, strings.TrimPrefix(p, "mafia/")))
		if err != nil {
			return nil, err
		}
		all = append(all, problems...)
		for _, imp := range imports {
			if strings.HasPrefix(imp, "mafia/") {
				queue = append(queue, imp)
			}
		}
	}
	return all, nil
}

// CheckDir checks the one package in dir (named pkg in messages) alone,
// not what it imports: the checker's own tests check snippets with it.
func CheckDir(pkg, dir string) ([]string, error) {
	_, problems, err := checkPackage(pkg, dir, nil)
	return problems, err
}

// checkPackage checks one package's non-test files and returns its
// imports and what breaks purity.
func checkPackage(pkg, dir string, allowed map[string]bool) (imports, problems []string, err error) {
	fset, files, err := Source(dir)
	if err != nil {
		return nil, nil, err
	}
	errorf := func(format string, a ...any) { problems = append(problems, fmt.Sprintf(format, a...)) }
	for _, f := range files {
		path := fset.Position(f.Package).Filename
		names := map[string]string{} // local name → import path
		for _, spec := range f.Imports {
			imp, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: bad import %s", path, spec.Path.Value)
			}
			imports = append(imports, imp)
			if why, bad := ForbiddenImports[imp]; bad {
				errorf("%s: %s imports %q: it %s", fset.Position(spec.Pos()), pkg, imp, why)
			} else if !PureImports[imp] && !allowed[imp] {
				errorf("%s: %s imports %q, which is not on the list of pure packages", fset.Position(spec.Pos()), pkg, imp)
			}
			local := imp[strings.LastIndex(imp, "/")+1:]
			if spec.Name != nil {
				local = spec.Name.Name
				if local == "." || local == "_" {
					errorf("%s: %s imports %q as %s: name what it uses", fset.Position(spec.Pos()), pkg, imp, local)
				}
			}
			names[local] = imp
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if strings.HasPrefix(c.Text, "//go:linkname") || strings.HasPrefix(c.Text, "//go:embed") {
					errorf("%s: %s uses %s", fset.Position(c.Pos()), pkg, strings.Fields(c.Text)[0])
				}
			}
		}
		ast.Inspect(f, func(node ast.Node) bool {
			where := func() string { return fset.Position(node.Pos()).String() }
			if what := concurrency(node); what != "" {
				errorf("%s: %s %s", where(), pkg, what)
			}
			switch x := node.(type) {
			case *ast.CallExpr:
				switch fn := x.Fun.(type) {
				case *ast.Ident:
					if fn.Name == "print" || fn.Name == "println" || fn.Name == "close" {
						errorf("%s: %s calls the builtin %s", where(), pkg, fn.Name)
					}
				case *ast.SelectorExpr:
					if id, ok := fn.X.(*ast.Ident); ok {
						if imp, ok := names[id.Name]; ok && ImpureCalls[imp+"."+fn.Sel.Name] {
							errorf("%s: %s calls %s.%s, which does I/O", where(), pkg, imp, fn.Sel.Name)
						}
					}
				}
			}
			return true
		})
	}
	return imports, problems, nil
}

// concurrency names the goroutine or channel construct node is ("starts a
// goroutine", "uses select", ...), or "" for any other node: what both
// Check and NoGoroutine refuse.
func concurrency(node ast.Node) string {
	switch x := node.(type) {
	case *ast.GoStmt:
		return "starts a goroutine"
	case *ast.SelectStmt:
		return "uses select"
	case *ast.ChanType:
		return "uses a channel type"
	case *ast.SendStmt:
		return "sends on a channel"
	case *ast.UnaryExpr:
		if x.Op == token.ARROW {
			return "receives from a channel"
		}
	}
	return ""
}

// Source parses the non-test Go files of the package in dir, in the
// order of their names, with their comments; a folder with none is an
// error. The bots' own source checks (bot/nogame_test.go) read it too.
func Source(dir string) (*token.FileSet, []*ast.File, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(paths)
	fset := token.NewFileSet()
	var files []*ast.File
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return nil, nil, err
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, nil, fmt.Errorf("no Go files in %s", dir)
	}
	return fset, files, nil
}
