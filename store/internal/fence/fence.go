// Package fence carries a table write's fencing token from store.Fenced's
// handle to the store that makes the write (store/sqlite, store/postgres),
// and no further: being internal to store/, nothing outside the stores can
// put a fence on a context or read one, so the only way to write fenced is
// the handle (store.Fenced), and a clustered store refuses a table-state
// write without one (store.ErrUnfenced).
package fence

import "context"

// link is one table's token, in a chain of the fences a context carries.
type link struct {
	table  string
	token  int64
	parent *link
}

type key struct{}

// With returns a context whose writes of table's state carry token.
func With(ctx context.Context, table string, token int64) context.Context {
	parent, _ := ctx.Value(key{}).(*link)
	return context.WithValue(ctx, key{}, &link{table: table, token: token, parent: parent})
}

// Of returns the token ctx carries for table, and whether it carries one.
func Of(ctx context.Context, table string) (token int64, ok bool) {
	for f, _ := ctx.Value(key{}).(*link); f != nil; f = f.parent {
		if f.table == table {
			return f.token, true
		}
	}
	return 0, false
}
