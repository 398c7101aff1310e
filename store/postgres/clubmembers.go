package postgres

// This file keeps the clubs' members and the links of roster entries to
// accounts (store.ClubMembers). Every change of a club's members or links
// locks the club's row first (lockClub), as MergePeople does: the rules
// that span rows (the club's last owner stays, a merge moves a link) are
// then checked on what the last change left, whichever server made it. The
// rule of one entry per account per club is the unique index
// club_people_by_account (00003).

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"

	"mafia/store"
)

var _ store.ClubMembers = (*DB)(nil)

// lockClub locks a club's row for the transaction (FOR NO KEY UPDATE: the
// club's rows may still be added); ErrNotFound for no club.
func lockClub(ctx context.Context, tx pgx.Tx, clubID string) error {
	var one int
	return rowsNotFound(tx.QueryRow(ctx, `SELECT 1 FROM clubs WHERE id = $1 FOR NO KEY UPDATE`, clubID).Scan(&one))
}

// accountExists is ErrNotFound for an account that does not exist.
func accountExists(ctx context.Context, tx pgx.Tx, id int64) error {
	var one int
	return rowsNotFound(tx.QueryRow(ctx, `SELECT 1 FROM accounts WHERE id = $1`, id).Scan(&one))
}

// lastOwner reports whether account is the club's one owner.
func lastOwner(ctx context.Context, tx pgx.Tx, clubID string, account int64) (bool, error) {
	var last bool
	err := tx.QueryRow(ctx, `SELECT count(*) FILTER (WHERE account_id <> $2) = 0 AND count(*) FILTER (WHERE account_id = $2) = 1
		FROM club_members WHERE club_id = $1 AND role = 'owner'`, clubID, account).Scan(&last)
	return last, err
}

// SetMember adds a member to a club or changes their role (see
// store.ClubMembers).
func (db *DB) SetMember(ctx context.Context, m store.ClubMembership) error {
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		if !m.Role.Valid() {
			return store.ErrConflict
		}
		if err := lockClub(ctx, tx, m.Club); err != nil {
			return err
		}
		if err := accountExists(ctx, tx, m.Account); err != nil {
			return err
		}
		if m.Role != store.ClubOwner {
			switch last, err := lastOwner(ctx, tx, m.Club, m.Account); {
			case err != nil:
				return err
			case last:
				return store.ErrConflict
			}
		}
		_, err := tx.Exec(ctx, `INSERT INTO club_members (club_id, account_id, role, added_ns) VALUES ($1, $2, $3, $4)
			ON CONFLICT (club_id, account_id) DO UPDATE SET role = excluded.role`, m.Club, m.Account, string(m.Role), nanos(m.Added))
		return err
	})
	if err != nil {
		return fmt.Errorf("store/postgres: member %d of club %q: %w", m.Account, m.Club, err)
	}
	return nil
}

// RemoveMember removes a member from a club (see store.ClubMembers).
func (db *DB) RemoveMember(ctx context.Context, clubID string, account int64) error {
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		if err := lockClub(ctx, tx, clubID); err != nil {
			return err
		}
		switch last, err := lastOwner(ctx, tx, clubID, account); {
		case err != nil:
			return err
		case last:
			return store.ErrConflict
		}
		tag, err := tx.Exec(ctx, `DELETE FROM club_members WHERE club_id = $1 AND account_id = $2`, clubID, account)
		if err == nil && tag.RowsAffected() == 0 {
			err = store.ErrNotFound
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("store/postgres: remove member %d of club %q: %w", account, clubID, err)
	}
	return nil
}

// ClubMember returns one member (see store.ClubMembers).
func (db *DB) ClubMember(ctx context.Context, clubID string, account int64) (store.ClubMembership, error) {
	m := store.ClubMembership{Club: clubID, Account: account}
	var role string
	var added int64
	err := db.pool.QueryRow(ctx, `SELECT role, added_ns FROM club_members WHERE club_id = $1 AND account_id = $2`, clubID, account).
		Scan(&role, &added)
	if err != nil {
		return m, fmt.Errorf("store/postgres: member %d of club %q: %w", account, clubID, rowsNotFound(err))
	}
	m.Role, m.Added = store.ClubRole(role), fromNanos(added)
	return m, nil
}

// ClubMembers lists a club's members in the order they were added (see
// store.ClubMembers).
func (db *DB) ClubMembers(ctx context.Context, clubID string) ([]store.ClubMembership, error) {
	out, err := listOfClub(ctx, db, clubID, `SELECT account_id, role, added_ns FROM club_members WHERE club_id = $1
		ORDER BY added_ns, account_id`, func(r pgx.CollectableRow) (store.ClubMembership, error) {
		m := store.ClubMembership{Club: clubID}
		var role string
		var added int64
		err := r.Scan(&m.Account, &role, &added)
		m.Role, m.Added = store.ClubRole(role), fromNanos(added)
		return m, err
	})
	if err != nil {
		return nil, fmt.Errorf("store/postgres: members of club %q: %w", clubID, err)
	}
	return out, nil
}

// AccountClubs lists the clubs an account belongs to or is linked in (see
// store.ClubMembers), by name then id in byte order, as SQLite lists them.
func (db *DB) AccountClubs(ctx context.Context, account int64) ([]store.AccountClub, error) {
	rows, err := db.pool.Query(ctx, `SELECT c.id, c.name, COALESCE(m.role, ''), COALESCE(p.id, '')
		FROM clubs c
		LEFT JOIN club_members m ON m.club_id = c.id AND m.account_id = $1
		LEFT JOIN club_people p ON p.club_id = c.id AND p.account_id = $2
		WHERE m.account_id IS NOT NULL OR p.id IS NOT NULL
		ORDER BY c.name COLLATE "C", c.id`, account, strconv.FormatInt(account, 10))
	if err != nil {
		return nil, fmt.Errorf("store/postgres: clubs of account %d: %w", account, rowsNotFound(err))
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.AccountClub, error) {
		var c store.AccountClub
		var role string
		err := r.Scan(&c.Club, &c.Name, &role, &c.Person)
		c.Role = store.ClubRole(role)
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("store/postgres: clubs of account %d: %w", account, rowsNotFound(err))
	}
	return out, nil
}

// LinkPerson links a roster entry to an account (see store.ClubMembers).
// An account linked to another entry of the club is refused by the unique
// index as much as by the check, so two links made at once cannot both
// succeed.
func (db *DB) LinkPerson(ctx context.Context, clubID, personID string, account int64) error {
	id := strconv.FormatInt(account, 10)
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		if err := lockClub(ctx, tx, clubID); err != nil {
			return err
		}
		var merged, linked *string
		err := tx.QueryRow(ctx, `SELECT merged_into, account_id FROM club_people WHERE club_id = $1 AND id = $2`, clubID, personID).
			Scan(&merged, &linked)
		if err != nil {
			return rowsNotFound(err)
		}
		if err := accountExists(ctx, tx, account); err != nil {
			return err
		}
		switch {
		case linked != nil && *linked == id:
			return nil
		case linked != nil || merged != nil:
			return store.ErrConflict
		}
		_, err = tx.Exec(ctx, `UPDATE club_people SET account_id = $1 WHERE club_id = $2 AND id = $3`, id, clubID, personID)
		if sqlState(err) == codeUnique {
			return store.ErrConflict
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("store/postgres: link %q of club %q to account %d: %w", personID, clubID, account, err)
	}
	return nil
}

// UnlinkPerson removes a roster entry's link (see store.ClubMembers).
func (db *DB) UnlinkPerson(ctx context.Context, clubID, personID string) error {
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		if err := lockClub(ctx, tx, clubID); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `UPDATE club_people SET account_id = NULL WHERE club_id = $1 AND id = $2`, clubID, personID)
		if err == nil && tag.RowsAffected() == 0 {
			err = store.ErrNotFound
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("store/postgres: unlink %q of club %q: %w", personID, clubID, err)
	}
	return nil
}
