package postgres

// This file keeps accounts, their logins and their bots (store.Accounts),
// and the helpers that clubs.go and ratings.go share with it.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"mafia/store"
)

var _ store.Accounts = (*DB)(nil)

// rowsNotFound turns pgx.ErrNoRows into store.ErrNotFound, and a read of
// data PostgreSQL finds damaged into store.ErrDamaged (asStoreError).
func rowsNotFound(err error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return store.ErrNotFound
	}
	return asStoreError(err)
}

// write1 runs one write that needs no transaction of its own, its error
// turned into the store's by refuse (nil: as it is) before the write is
// counted (WriteStats, WriteHealth: a refusal is no failure of the store).
func (db *DB) write1(ctx context.Context, refuse func(error) error, q string, args ...any) (tag pgconn.CommandTag, err error) {
	began := time.Now()
	defer func() { db.noteWrite(began, err) }()
	tag, err = db.pool.Exec(ctx, q, args...)
	if err != nil && refuse != nil {
		err = refuse(err)
	}
	return tag, err
}

// refuseTaken turns a unique key's violation into store.ErrConflict and a
// foreign key's into store.ErrNotFound (what it refers to is not there).
func refuseTaken(err error) error {
	switch sqlState(err) {
	case codeUnique:
		return store.ErrConflict
	case codeForeignKey:
		return store.ErrNotFound
	}
	return err
}

// execOne runs one write, ErrNotFound when mustChange and it changed no
// row.
func (db *DB) execOne(ctx context.Context, what string, mustChange bool, q string, args ...any) error {
	tag, err := db.write1(ctx, refuseTaken, q, args...)
	if err == nil && mustChange && tag.RowsAffected() == 0 {
		err = store.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("store/postgres: %s: %w", what, err)
	}
	return nil
}

const accountColumns = `id, name, key, password_hash, owner_id, bot_token_hash, created_ns`

func scanAccount(row pgx.Row) (store.Account, error) {
	var a store.Account
	var created int64
	err := row.Scan(&a.ID, &a.Name, &a.Key, &a.PasswordHash, &a.Owner, &a.BotTokenHash, &created)
	a.Created = fromNanos(created)
	return a, err
}

// nameFormsLock is the advisory lock under which accounts with forms are
// made (CreateAccount): any number, the same on every node.
const nameFormsLock = 0x6d61666961_01 // "mafia", 1

// CreateAccount adds an account (store.Accounts); a key (or a bot token)
// taken is store.ErrConflict, which the unique index decides, so two
// servers creating one name at once cannot both succeed.
func (db *DB) CreateAccount(ctx context.Context, a store.Account) (int64, error) {
	return db.CreateAccountWithForms(ctx, a, nil)
}

// CreateAccountWithForms is CreateAccount refusing a name whose forms
// another account has, and recording them (store.NameForms).
func (db *DB) CreateAccountWithForms(ctx context.Context, a store.Account, forms []string) (int64, error) {
	var id int64
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		if len(forms) > 0 {
			// New names with forms are made one at a time across the
			// cluster (a lock held to the transaction's end), so that the
			// forms looked up here cannot be taken before they are
			// recorded.
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, nameFormsLock); err != nil {
				return err
			}
			var taken bool
			if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM name_forms WHERE form = ANY($1::text[]))
				OR EXISTS (SELECT 1 FROM accounts WHERE key = ANY($1::text[]))`, forms).Scan(&taken); err != nil {
				return err
			}
			if taken {
				return store.ErrConflict
			}
		}
		if err := refuseTaken(tx.QueryRow(ctx, `INSERT INTO accounts (name, key, password_hash, owner_id, bot_token_hash, created_ns)
			VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, a.Name, a.Key, a.PasswordHash, a.Owner, a.BotTokenHash, nanos(a.Created)).Scan(&id)); err != nil {
			return err
		}
		if len(forms) == 0 {
			return nil
		}
		_, err := tx.Exec(ctx, `INSERT INTO name_forms (form, account_id)
			SELECT f, $2 FROM unnest($1::text[]) AS f ON CONFLICT DO NOTHING`, forms, id)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store/postgres: create account: %w", err)
	}
	return id, nil
}

func (db *DB) accountWhere(ctx context.Context, what, where string, arg any) (store.Account, error) {
	a, err := scanAccount(db.pool.QueryRow(ctx, `SELECT `+accountColumns+` FROM accounts WHERE `+where, arg))
	if err != nil {
		return store.Account{}, fmt.Errorf("store/postgres: account by %s: %w", what, rowsNotFound(err))
	}
	return a, nil
}

// AccountByKey finds an account by its key (store.Accounts).
func (db *DB) AccountByKey(ctx context.Context, key string) (store.Account, error) {
	return db.accountWhere(ctx, "key", `key = $1`, key)
}

// AccountByID finds an account by its id (store.Accounts).
func (db *DB) AccountByID(ctx context.Context, id int64) (store.Account, error) {
	return db.accountWhere(ctx, "id", `id = $1`, id)
}

// AccountByBotToken finds a bot by its token's hash (store.Accounts).
func (db *DB) AccountByBotToken(ctx context.Context, hash string) (store.Account, error) {
	if hash == "" {
		return store.Account{}, fmt.Errorf("store/postgres: account by bot token: %w", store.ErrNotFound)
	}
	return db.accountWhere(ctx, "bot token", `bot_token_hash = $1 AND owner_id <> 0`, hash)
}

// Bots lists an account's bots, oldest first (store.Accounts).
func (db *DB) Bots(ctx context.Context, owner int64) ([]store.Account, error) {
	rows, err := db.pool.Query(ctx, `SELECT `+accountColumns+` FROM accounts WHERE owner_id = $1 AND owner_id <> 0 ORDER BY id`, owner)
	if err != nil {
		return nil, fmt.Errorf("store/postgres: bots: %w", rowsNotFound(err))
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.Account, error) { return scanAccount(r) })
	if err != nil {
		return nil, fmt.Errorf("store/postgres: bots: %w", rowsNotFound(err))
	}
	return out, nil
}

// SetBotToken replaces a bot's token hash (store.Accounts).
func (db *DB) SetBotToken(ctx context.Context, id int64, hash string) error {
	return db.execOne(ctx, "set bot token", true, `UPDATE accounts SET bot_token_hash = $1 WHERE id = $2 AND owner_id <> 0`, hash, id)
}

// SetPassword replaces a password hash and ends the account's other logins
// in one transaction (store.Accounts).
func (db *DB) SetPassword(ctx context.Context, id int64, hash, keep string) error {
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE accounts SET password_hash = $1 WHERE id = $2 AND owner_id = 0`, hash, id)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return store.ErrNotFound
		}
		_, err = tx.Exec(ctx, `DELETE FROM sessions WHERE account_id = $1 AND token_hash <> $2`, id, keep)
		return err
	})
	if err != nil {
		return fmt.Errorf("store/postgres: set password: %w", err)
	}
	return nil
}

// Rehash replaces a password hash that is still old (store.Accounts).
func (db *DB) Rehash(ctx context.Context, id int64, old, new string) error {
	return db.execOne(ctx, "rehash", false, `UPDATE accounts SET password_hash = $1 WHERE id = $2 AND password_hash = $3`, new, id, old)
}

// CreateSession stores a login and forgets the account's logins that ran
// out by its Created, in one transaction (store.Accounts).
func (db *DB) CreateSession(ctx context.Context, s store.Session) error {
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO sessions (token_hash, account_id, created_ns, expires_ns) VALUES ($1, $2, $3, $4)`,
			s.TokenHash, s.Account, nanos(s.Created), nanos(s.Expires))
		if err != nil {
			return refuseTaken(err)
		}
		_, err = tx.Exec(ctx, `DELETE FROM sessions WHERE account_id = $1 AND expires_ns <= $2`, s.Account, nanos(s.Created))
		return err
	})
	if err != nil {
		return fmt.Errorf("store/postgres: create session: %w", err)
	}
	return nil
}

// Session finds a login by its token's hash (store.Accounts).
func (db *DB) Session(ctx context.Context, hash string) (store.Session, error) {
	var s store.Session
	var created, expires int64
	err := db.pool.QueryRow(ctx, `SELECT token_hash, account_id, created_ns, expires_ns FROM sessions WHERE token_hash = $1`, hash).
		Scan(&s.TokenHash, &s.Account, &created, &expires)
	if err != nil {
		return store.Session{}, fmt.Errorf("store/postgres: session: %w", rowsNotFound(err))
	}
	s.Created, s.Expires = fromNanos(created), fromNanos(expires)
	return s, nil
}

// DeleteSession ends one login (store.Accounts).
func (db *DB) DeleteSession(ctx context.Context, hash string) error {
	return db.execOne(ctx, "delete session", false, `DELETE FROM sessions WHERE token_hash = $1`, hash)
}

// DeleteSessions ends every login of an account (store.Accounts).
func (db *DB) DeleteSessions(ctx context.Context, account int64) error {
	return db.execOne(ctx, "delete sessions", false, `DELETE FROM sessions WHERE account_id = $1`, account)
}

// AccountGames lists the finished online games an account sat at, the
// newest first (store.Accounts). The seat's card is read from the game's
// first event (game_started, whose roles list every seat's card).
func (db *DB) AccountGames(ctx context.Context, account, viewer int64, limit int) ([]store.AccountGame, error) {
	lim := int64(limit)
	if limit <= 0 {
		lim = math.MaxInt64
	}
	rows, err := db.pool.Query(ctx, `SELECT t.id, t.name, t.public, t.winner, t.updated_ns, s.seat,
			COALESCE((SELECT (e.json->>'players')::integer FROM events e WHERE e.table_id = t.id AND e.seq = 0), 0),
			COALESCE((SELECT e.json->'roles'->>(s.seat - 1) FROM events e
				WHERE e.table_id = t.id AND e.seq = 0 AND e.kind = 'game_started'), ''),
			EXISTS (SELECT 1 FROM seats v WHERE v.table_id = t.id AND v.account_id = $2 AND $2 <> 0)
		FROM seats s JOIN tables t ON t.id = s.table_id
		WHERE s.account_id = $1 AND $1 <> 0 AND t.status = 'ended' AND t.kind = 'online'
		ORDER BY t.updated_ns DESC, t.id COLLATE "C" LIMIT $3`, account, viewer, lim)
	if err != nil {
		return nil, fmt.Errorf("store/postgres: games of an account: %w", rowsNotFound(err))
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.AccountGame, error) {
		var g store.AccountGame
		var ended int64
		err := r.Scan(&g.Table, &g.Name, &g.Public, &g.Winner, &ended, &g.Seat, &g.Players, &g.Role, &g.ViewerSat)
		g.Ended = fromNanos(ended)
		return g, err
	})
	if err != nil {
		return nil, fmt.Errorf("store/postgres: games of an account: %w", rowsNotFound(err))
	}
	return out, nil
}

// KeepSeat gives a finished game's guest seat to an account (store.Accounts),
// in one statement: of two callers keeping one seat at once, the second
// finds it an account's already.
func (db *DB) KeepSeat(ctx context.Context, table, tokenHash string, account int64) error {
	return db.execOne(ctx, "keep seat", true, `UPDATE seats SET account_id = $1
		WHERE table_id = $2 AND token_hash = $3 AND token_hash <> '' AND account_id = 0 AND NOT bot
		AND EXISTS (SELECT 1 FROM tables t WHERE t.id = seats.table_id AND t.status = 'ended' AND t.kind = 'online')`,
		account, table, tokenHash)
}
