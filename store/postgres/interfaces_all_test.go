package postgres

import (
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestDB_ImplementsEveryInterfaceOfStoreThatSQLiteDoes is the list of
// TestDB_ImplementsEverySQLiteInterface kept by the compiler: every
// exported interface of package store, those of tomorrow too, that
// *sqlite.DB implements, *DB implements. It reads the packages' types from
// the compiler's export data (go list -export).
func TestDB_ImplementsEveryInterfaceOfStoreThatSQLiteDoes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the packages' export data with the go command")
	}
	out, err := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}",
		"mafia/store", "mafia/store/sqlite", "mafia/store/postgres").Output()
	if err != nil {
		t.Fatalf("go list -export: %v", err)
	}
	exports := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if path, file, ok := strings.Cut(l, "="); ok && file != "" {
			exports[path] = file
		}
	}
	imp := importer.ForCompiler(token.NewFileSet(), "gc", func(path string) (io.ReadCloser, error) {
		f, ok := exports[path]
		if !ok {
			return nil, os.ErrNotExist
		}
		return os.Open(f)
	})
	pkg := func(path string) *types.Package {
		p, err := imp.Import(path)
		if err != nil {
			t.Fatalf("import %s: %v", path, err)
		}
		return p
	}
	st, lite, pg := pkg("mafia/store"), pkg("mafia/store/sqlite"), pkg("mafia/store/postgres")
	liteDB := types.NewPointer(lite.Scope().Lookup("DB").Type())
	pgDB := types.NewPointer(pg.Scope().Lookup("DB").Type())
	checked := 0
	for _, name := range st.Scope().Names() {
		obj, ok := st.Scope().Lookup(name).(*types.TypeName)
		if !ok || !obj.Exported() {
			continue
		}
		iface, ok := obj.Type().Underlying().(*types.Interface)
		if !ok || !types.Implements(liteDB, iface) {
			continue
		}
		checked++
		if !types.Implements(pgDB, iface) {
			t.Errorf("*postgres.DB does not implement store.%s, which *sqlite.DB does", name)
		}
	}
	if checked < 10 {
		t.Errorf("only %d interfaces of package store found on *sqlite.DB; want store.Store, Accounts, Chats, ... at least 10", checked)
	}
}
