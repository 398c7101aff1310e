package sqlite

// This file keeps accounts, their logins and their bots (store.Accounts).

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"mafia/store"
)

const accountColumns = `id, name, key, password_hash, owner_id, bot_token_hash, created_at`

func scanAccount(s scanner) (store.Account, error) {
	var a store.Account
	var created string
	if err := s.Scan(&a.ID, &a.Name, &a.Key, &a.PasswordHash, &a.Owner, &a.BotTokenHash, &created); err != nil {
		return a, err
	}
	var err error
	a.Created, err = parseTime(created)
	return a, err
}

// notFound turns sql.ErrNoRows into store.ErrNotFound.
func notFound(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return store.ErrNotFound
	}
	return asDamaged(err)
}

// CreateAccount adds an account (store.Accounts); a key taken is
// store.ErrConflict.
func (db *DB) CreateAccount(ctx context.Context, a store.Account) (int64, error) {
	return db.CreateAccountWithForms(ctx, a, nil)
}

// CreateAccountWithForms is CreateAccount refusing a name whose forms
// another account has, and recording them (store.NameForms).
func (db *DB) CreateAccountWithForms(ctx context.Context, a store.Account, forms []string) (int64, error) {
	var id int64
	err := db.inTx(ctx, func(tx *wtx) error {
		// The write transaction is the store's only writer: the forms
		// looked up here cannot be taken before the account is made.
		if taken, err := formTaken(ctx, tx, forms); err != nil || taken {
			if taken {
				return store.ErrConflict
			}
			return err
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO accounts (name, key, password_hash, owner_id, bot_token_hash, created_at)
			VALUES (?, ?, ?, ?, ?, ?)`, a.Name, a.Key, a.PasswordHash, a.Owner, a.BotTokenHash, formatTime(a.Created))
		if isPrimaryKeyViolation(err) {
			return store.ErrConflict
		}
		if err != nil {
			return err
		}
		if id, err = res.LastInsertId(); err != nil {
			return err
		}
		for _, f := range forms {
			if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO name_forms (form, account_id) VALUES (?, ?)`, f, id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("store/sqlite: create account: %w", err)
	}
	return id, nil
}

// formTaken reports whether any of forms is an account's form or key.
func formTaken(ctx context.Context, tx *wtx, forms []string) (bool, error) {
	for _, f := range forms {
		var one int
		err := tx.QueryRowContext(ctx, `SELECT 1 WHERE EXISTS (SELECT 1 FROM name_forms WHERE form = ?)
			OR EXISTS (SELECT 1 FROM accounts WHERE key = ?)`, f, f).Scan(&one)
		if err == nil {
			return true, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return false, err
		}
	}
	return false, nil
}

func (db *DB) accountWhere(ctx context.Context, what, where string, arg any) (store.Account, error) {
	a, err := scanAccount(db.rd.QueryRowContext(ctx, `SELECT `+accountColumns+` FROM accounts WHERE `+where, arg))
	if err != nil {
		return store.Account{}, fmt.Errorf("store/sqlite: account by %s: %w", what, notFound(err))
	}
	return a, nil
}

// AccountByKey finds an account by its key (store.Accounts).
func (db *DB) AccountByKey(ctx context.Context, key string) (store.Account, error) {
	return db.accountWhere(ctx, "key", `key = ?`, key)
}

// AccountByID finds an account by its id (store.Accounts).
func (db *DB) AccountByID(ctx context.Context, id int64) (store.Account, error) {
	return db.accountWhere(ctx, "id", `id = ?`, id)
}

// AccountByBotToken finds a bot by its token's hash (store.Accounts).
func (db *DB) AccountByBotToken(ctx context.Context, hash string) (store.Account, error) {
	if hash == "" {
		return store.Account{}, fmt.Errorf("store/sqlite: account by bot token: %w", store.ErrNotFound)
	}
	return db.accountWhere(ctx, "bot token", `bot_token_hash = ? AND owner_id <> 0`, hash)
}

// Bots lists an account's bots, oldest first (store.Accounts).
func (db *DB) Bots(ctx context.Context, owner int64) ([]store.Account, error) {
	rows, err := db.rd.QueryContext(ctx, `SELECT `+accountColumns+` FROM accounts WHERE owner_id = ? AND owner_id <> 0 ORDER BY id`, owner)
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: bots: %w", asDamaged(err))
	}
	defer rows.Close()
	var out []store.Account
	for rows.Next() {
		a, err := scanAccount(rows)
		if err != nil {
			return nil, fmt.Errorf("store/sqlite: bots: %w", asDamaged(err))
		}
		out = append(out, a)
	}
	return out, asDamaged(rows.Err())
}

// exec runs one write and reports store.ErrNotFound when it changed no row.
func (db *DB) exec(ctx context.Context, what string, mustChange bool, q string, args ...any) error {
	err := db.inTx(ctx, func(tx *wtx) error {
		res, err := tx.ExecContext(ctx, q, args...)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err == nil && n == 0 && mustChange {
			return store.ErrNotFound
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("store/sqlite: %s: %w", what, err)
	}
	return nil
}

// SetBotToken replaces a bot's token hash (store.Accounts).
func (db *DB) SetBotToken(ctx context.Context, id int64, hash string) error {
	return db.exec(ctx, "set bot token", true, `UPDATE accounts SET bot_token_hash = ? WHERE id = ? AND owner_id <> 0`, hash, id)
}

// SetPassword replaces a password hash and ends the account's other logins
// in one transaction (store.Accounts).
func (db *DB) SetPassword(ctx context.Context, id int64, hash, keep string) error {
	err := db.inTx(ctx, func(tx *wtx) error {
		res, err := tx.ExecContext(ctx, `UPDATE accounts SET password_hash = ? WHERE id = ? AND owner_id = 0`, hash, id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return store.ErrNotFound
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM sessions WHERE account_id = ? AND token_hash <> ?`, id, keep)
		return err
	})
	if err != nil {
		return fmt.Errorf("store/sqlite: set password: %w", err)
	}
	return nil
}

// Rehash replaces a password hash that is still old (store.Accounts).
func (db *DB) Rehash(ctx context.Context, id int64, old, new string) error {
	return db.exec(ctx, "rehash", false, `UPDATE accounts SET password_hash = ? WHERE id = ? AND password_hash = ?`, new, id, old)
}

// CreateSession stores a login (store.Accounts).
func (db *DB) CreateSession(ctx context.Context, s store.Session) error {
	err := db.inTx(ctx, func(tx *wtx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO sessions (token_hash, account_id, created_at, expires_at)
			VALUES (?, ?, ?, ?)`, s.TokenHash, s.Account, formatTime(s.Created), formatTime(s.Expires))
		if isForeignKeyViolation(err) {
			return store.ErrNotFound
		}
		if err != nil {
			return err
		}
		// The account's logins that have run out go with the new one's
		// write: what is kept of an account's logins stays its live ones.
		_, err = tx.ExecContext(ctx, `DELETE FROM sessions WHERE account_id = ? AND expires_at <= ?`, s.Account, formatTime(s.Created))
		return err
	})
	if err != nil {
		return fmt.Errorf("store/sqlite: create session: %w", err)
	}
	return nil
}

// Session finds a login by its token's hash (store.Accounts).
func (db *DB) Session(ctx context.Context, hash string) (store.Session, error) {
	var s store.Session
	var created, expires string
	err := db.rd.QueryRowContext(ctx, `SELECT token_hash, account_id, created_at, expires_at FROM sessions
		WHERE token_hash = ?`, hash).Scan(&s.TokenHash, &s.Account, &created, &expires)
	if err == nil {
		if s.Created, err = parseTime(created); err == nil {
			s.Expires, err = parseTime(expires)
		}
	}
	if err != nil {
		return store.Session{}, fmt.Errorf("store/sqlite: session: %w", notFound(err))
	}
	return s, nil
}

// DeleteSession ends one login (store.Accounts).
func (db *DB) DeleteSession(ctx context.Context, hash string) error {
	return db.exec(ctx, "delete session", false, `DELETE FROM sessions WHERE token_hash = ?`, hash)
}

// DeleteSessions ends every login of an account (store.Accounts).
func (db *DB) DeleteSessions(ctx context.Context, account int64) error {
	return db.exec(ctx, "delete sessions", false, `DELETE FROM sessions WHERE account_id = ?`, account)
}

// AccountGames lists the finished online games an account sat at, the
// newest first (store.Accounts). The seat's card is read from the game's
// first event (game_started, whose roles list every seat's card).
func (db *DB) AccountGames(ctx context.Context, account, viewer int64, limit int) ([]store.AccountGame, error) {
	if limit <= 0 {
		limit = -1
	}
	rows, err := db.rd.QueryContext(ctx, `SELECT t.id, t.name, t.public, t.winner, t.updated_at, s.seat,
			COALESCE((SELECT json_extract(e.json, '$.players') FROM events e WHERE e.table_id = t.id AND e.seq = 0), 0),
			COALESCE((SELECT json_extract(e.json, '$.roles[' || (s.seat - 1) || ']') FROM events e
				WHERE e.table_id = t.id AND e.seq = 0 AND e.kind = 'game_started'), ''),
			EXISTS (SELECT 1 FROM seats v WHERE v.table_id = t.id AND v.account_id = ?2 AND ?2 <> 0)
		FROM seats s JOIN tables t ON t.id = s.table_id
		WHERE s.account_id = ?1 AND ?1 <> 0 AND t.status = 'ended' AND t.kind = 'online'
		ORDER BY t.updated_at DESC, t.id LIMIT ?3`, account, viewer, limit)
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: games of an account: %w", asDamaged(err))
	}
	defer rows.Close()
	var out []store.AccountGame
	for rows.Next() {
		var g store.AccountGame
		var ended string
		if err := rows.Scan(&g.Table, &g.Name, &g.Public, &g.Winner, &ended, &g.Seat, &g.Players, &g.Role, &g.ViewerSat); err != nil {
			return nil, fmt.Errorf("store/sqlite: games of an account: %w", asDamaged(err))
		}
		if g.Ended, err = parseTime(ended); err != nil {
			return nil, fmt.Errorf("store/sqlite: games of an account: %w", err)
		}
		out = append(out, g)
	}
	return out, asDamaged(rows.Err())
}

// KeepSeat gives a finished game's guest seat to an account (store.Accounts).
func (db *DB) KeepSeat(ctx context.Context, table, tokenHash string, account int64) error {
	return db.exec(ctx, "keep seat", true, `UPDATE seats SET account_id = ?
		WHERE table_id = ? AND token_hash = ? AND token_hash <> '' AND account_id = 0 AND bot = 0
		AND EXISTS (SELECT 1 FROM tables t WHERE t.id = seats.table_id AND t.status = 'ended' AND t.kind = 'online')`,
		account, table, tokenHash)
}

var _ store.Accounts = (*DB)(nil)
