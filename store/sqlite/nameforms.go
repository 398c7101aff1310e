package sqlite

// This file keeps the forms accounts' names are read in (store.NameForms).

import (
	"context"
	"errors"
	"fmt"

	"mafia/store"
)

var _ store.NameForms = (*DB)(nil)

// AddNameForms records an account's forms (store.NameForms).
func (db *DB) AddNameForms(ctx context.Context, account int64, forms []string) error {
	err := db.inTx(ctx, func(tx *wtx) error {
		for _, f := range forms {
			_, err := tx.ExecContext(ctx, `INSERT INTO name_forms (form, account_id) VALUES (?, ?)
				ON CONFLICT DO NOTHING`, f, account)
			if isForeignKeyViolation(err) {
				return store.ErrNotFound
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store/sqlite: add name forms: %w", err)
	}
	return nil
}

// AccountByNameForm finds the oldest account with a form (store.NameForms).
func (db *DB) AccountByNameForm(ctx context.Context, form string) (store.Account, error) {
	return db.accountWhere(ctx, "name form", `id = (SELECT account_id FROM name_forms WHERE form = ? ORDER BY account_id LIMIT 1)`, form)
}

// AccountsWithoutNameForms lists accounts with no form recorded
// (store.NameForms).
func (db *DB) AccountsWithoutNameForms(ctx context.Context, n int) ([]store.Account, error) {
	rows, err := db.rd.QueryContext(ctx, `SELECT `+accountColumns+` FROM accounts
		WHERE NOT EXISTS (SELECT 1 FROM name_forms WHERE account_id = accounts.id) ORDER BY id LIMIT ?`, n)
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: accounts without name forms: %w", err)
	}
	var out []store.Account
	for rows.Next() {
		a, err := scanAccount(rows)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("store/sqlite: accounts without name forms: %w", err)
		}
		out = append(out, a)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return nil, fmt.Errorf("store/sqlite: accounts without name forms: %w", err)
	}
	return out, nil
}
