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

// Concurrent are the standard packages whose use starts goroutines (a
// server, a process's pipes, a signal's delivery, a bubble of fake time):
// a package that imports one may run code on two goroutines at once.
var Concurrent = map[string]string{
	"net":              "its listeners and resolvers run goroutines",
	"os/exec":          "copies a process's pipes on goroutines",
	"os/signal":        "delivers signals on a goroutine",
	"testing/synctest": "runs a bubble's goroutines",
}

// ConcurrentCalls are the functions of other packages that start a
// goroutine (or a timer's, which runs its function on one) each time they
// are called.
var ConcurrentCalls = map[string]bool{
	"time.AfterFunc": true, "time.NewTimer": true, "time.NewTicker": true, "time.Tick": true, "time.After": true,
	"context.WithCancel": true, "context.WithCancelCause": true, "context.WithTimeout": true,
	"context.WithTimeoutCause": true, "context.WithDeadline": true, "context.WithDeadlineCause": true,
	"context.AfterFunc":       true,
	"net/http.ListenAndServe": true, "net/http.ListenAndServeTLS": true, "net/http.Serve": true,
	"net/http.ServeTLS": true, "net/http.Get": true, "net/http.Head": true, "net/http.Post": true,
	"net/http.PostForm":           true,
	"net/http/httptest.NewServer": true, "net/http/httptest.NewUnstartedServer": true,
	"net/http/httptest.NewTLSServer": true,
	"pgregory.net/rapid.SyncTest":    true,
}

// ServingMethods are the methods that start a server's or a client's
// goroutines (an http.Server's Serve, an httptest.Server's Start, an
// http.Client's Do, a transport's RoundTrip): in a file that imports
// net/http or net/http/httptest, a call of a method so named is taken for
// one (the check reads no types).
var ServingMethods = map[string]bool{
	"Serve": true, "ServeTLS": true, "ListenAndServe": true, "ListenAndServeTLS": true,
	"Do": true, "RoundTrip": true, "Start": true, "StartTLS": true,
}

// NoGoroutine checks that the package pkg (its folder, relative to the
// module's root) and its tests run on one goroutine, so that the race
// detector has nothing to find in its test binary: neither its source nor
// its tests (_test.go files, both packages) start a goroutine, use a
// channel or select, call t.Parallel (a test's parallel subtests run on
// goroutines of their own), import a package of Concurrent or call a
// function of ConcurrentCalls; and the non-test source of every project
// package it imports starts none either (by the same rules; their tests
// are not part of pkg's binary). Functions of other modules and of the
// standard library not named above are taken to start none. It returns
// what breaks the rule, each with its position.
func NoGoroutine(root, pkg string) ([]string, error) {
	return walk(root, pkg, func(p, dir string) ([]string, []string, error) { return checkOneGoroutine(p, dir, p == pkg) })
}

// checkOneGoroutine checks one package's Go files (with its tests when
// tests is set) against NoGoroutine's rules and returns the project
// packages its non-test files import (and its tests', when tests is set).
func checkOneGoroutine(pkg, dir string, tests bool) (imports, problems []string, err error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(paths)
	fset := token.NewFileSet()
	errorf := func(format string, a ...any) { problems = append(problems, fmt.Sprintf(format, a...)) }
	files := 0
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") && !tests {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, err
		}
		files++
		names := map[string]string{} // local name → import path
		serving := false             // the file imports net/http or httptest
		for _, spec := range f.Imports {
			imp, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: bad import %s", path, spec.Path.Value)
			}
			imports = append(imports, imp)
			serving = serving || imp == "net/http" || imp == "net/http/httptest"
			if why := Concurrent[imp]; why != "" {
				errorf("%s: %s imports %q: %s", fset.Position(spec.Pos()), pkg, imp, why)
			}
			local := imp[strings.LastIndex(imp, "/")+1:]
			if spec.Name != nil {
				local = spec.Name.Name
			}
			names[local] = imp
		}
		ast.Inspect(f, func(node ast.Node) bool {
			where := func() string { return fset.Position(node.Pos()).String() }
			if what := concurrency(node); what != "" {
				errorf("%s: %s %s", where(), pkg, what)
			}
			switch x := node.(type) {
			case *ast.CallExpr:
				fn, ok := x.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if fn.Sel.Name == "Parallel" && len(x.Args) == 0 {
					errorf("%s: %s runs a test in parallel (t.Parallel)", where(), pkg)
				}
				if serving && ServingMethods[fn.Sel.Name] {
					errorf("%s: %s calls a method %s in a file that imports net/http: a server's or a client's goroutines", where(), pkg, fn.Sel.Name)
				}
				if id, ok := fn.X.(*ast.Ident); ok {
					if imp, ok := names[id.Name]; ok && ConcurrentCalls[imp+"."+fn.Sel.Name] {
						errorf("%s: %s calls %s.%s, which starts a goroutine", where(), pkg, imp, fn.Sel.Name)
					}
				}
			}
			return true
		})
	}
	if files == 0 {
		return nil, nil, fmt.Errorf("no Go files in %s", dir)
	}
	return imports, problems, nil
}
