package postgres

// This file keeps the forms accounts' names are read in (store.NameForms).

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"mafia/store"
)

var _ store.NameForms = (*DB)(nil)

// AddNameForms records an account's forms (store.NameForms), in one
// statement.
func (db *DB) AddNameForms(ctx context.Context, account int64, forms []string) error {
	if len(forms) == 0 {
		return nil
	}
	_, err := db.write1(ctx, refuseTaken, `INSERT INTO name_forms (form, account_id)
		SELECT f, $2 FROM unnest($1::text[]) AS f ON CONFLICT DO NOTHING`, forms, account)
	if err != nil {
		return fmt.Errorf("store/postgres: add name forms: %w", err)
	}
	return nil
}

// AccountByNameForm finds the oldest account with a form (store.NameForms).
func (db *DB) AccountByNameForm(ctx context.Context, form string) (store.Account, error) {
	return db.accountWhere(ctx, "name form", `id = (SELECT account_id FROM name_forms WHERE form = $1 ORDER BY account_id LIMIT 1)`, form)
}

// AccountsWithoutNameForms lists accounts with no form recorded
// (store.NameForms).
func (db *DB) AccountsWithoutNameForms(ctx context.Context, n int) ([]store.Account, error) {
	rows, err := db.pool.Query(ctx, `SELECT `+accountColumns+` FROM accounts
		WHERE NOT EXISTS (SELECT 1 FROM name_forms WHERE account_id = accounts.id) ORDER BY id LIMIT $1`, n)
	if err != nil {
		return nil, fmt.Errorf("store/postgres: accounts without name forms: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.Account, error) { return scanAccount(r) })
	if err != nil {
		return nil, fmt.Errorf("store/postgres: accounts without name forms: %w", err)
	}
	return out, nil
}
