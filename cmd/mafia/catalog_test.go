package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"mafia/engine"
	"mafia/locale"
)

// serverCodes reads every `engine.Code` constant declared in the room,
// server, httpguard and bot packages' sources, so that a new code without a
// sentence fails.
func serverCodes(t *testing.T) []string {
	t.Helper()
	codes := codesIn(t, "../../room", "../../server", "../../internal/httpguard", "../../bot", "../../account")
	if len(codes) < 15 {
		t.Fatalf("found only %d room and server codes; the scan is broken", len(codes))
	}
	return append(codes, "not_found")
}

// codesIn reads every `engine.Code` constant (a string literal typed
// engine.Code, or Code inside package engine) declared in the sources of
// dirs, tests left out.
func codesIn(t *testing.T, dirs ...string) []string {
	t.Helper()
	var codes []string
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			af, err := parser.ParseFile(token.NewFileSet(), f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(af, func(n ast.Node) bool {
				vs, ok := n.(*ast.ValueSpec)
				if !ok || vs.Type == nil {
					return true
				}
				switch typ := vs.Type.(type) {
				case *ast.SelectorExpr:
					if typ.Sel.Name != "Code" {
						return true
					}
				case *ast.Ident:
					if typ.Name != "Code" {
						return true
					}
				default:
					return true
				}
				for _, v := range vs.Values {
					if lit, ok := v.(*ast.BasicLit); ok {
						s, _ := strconv.Unquote(lit.Value)
						codes = append(codes, s)
					}
				}
				return true
			})
		}
	}
	return codes
}

// TestCatalog_EveryServerRefusalHasASentence: every code the server or a
// room can send has its own sentence in Georgian, English and Russian (not
// the generic one).
func TestCatalog_EveryServerRefusalHasASentence(t *testing.T) {
	for _, l := range locale.Langs() {
		p := locale.New(l)
		generic := p.Refusal(nil)
		for _, code := range serverCodes(t) {
			if !p.Has("error." + code) {
				t.Errorf("%s: no message error.%s", l, code)
				continue
			}
			s := p.Refusal(&engine.Error{Code: engine.Code(code), Seat: 3})
			if s == generic || strings.Contains(s, "<no value>") || strings.Contains(s, "{{") {
				t.Errorf("%s: %s renders %q", l, code, s)
			}
		}
	}
}
