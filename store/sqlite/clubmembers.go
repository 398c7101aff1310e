package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"

	"mafia/store"
)

var _ store.ClubMembers = (*DB)(nil)

// accountExists is ErrNotFound for an account that does not exist.
func accountExists(ctx context.Context, q queryer, id int64) error {
	var one int
	err := q.QueryRowContext(ctx, `SELECT 1 FROM accounts WHERE id = ?`, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return store.ErrNotFound
	}
	return err
}

// owners counts a club's owners.
func owners(ctx context.Context, q queryer, clubID string) (int, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT count(*) FROM club_members WHERE club_id = ? AND role = 'owner'`, clubID).Scan(&n)
	return n, err
}

// SetMember adds a member to a club or changes their role (see
// store.ClubMembers).
func (db *DB) SetMember(ctx context.Context, m store.ClubMembership) error {
	err := db.inWriter(ctx, func(ctx context.Context, tx *wtx) error {
		if !m.Role.Valid() {
			return store.ErrConflict
		}
		if err := clubExists(ctx, tx, m.Club); err != nil {
			return err
		}
		if err := accountExists(ctx, tx, m.Account); err != nil {
			return err
		}
		old, err := member(ctx, tx, m.Club, m.Account)
		switch {
		case errors.Is(err, store.ErrNotFound):
			_, err := tx.ExecContext(ctx, `INSERT INTO club_members (club_id, account_id, role, added_at) VALUES (?, ?, ?, ?)`,
				m.Club, m.Account, string(m.Role), formatTime(m.Added))
			return err
		case err != nil:
			return err
		}
		if old.Role == store.ClubOwner && m.Role != store.ClubOwner {
			n, err := owners(ctx, tx, m.Club)
			if err != nil {
				return err
			}
			if n <= 1 {
				return store.ErrConflict
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE club_members SET role = ? WHERE club_id = ? AND account_id = ?`, string(m.Role), m.Club, m.Account)
		return err
	})
	if err != nil {
		return fmt.Errorf("store/sqlite: member %d of club %q: %w", m.Account, m.Club, err)
	}
	return nil
}

// RemoveMember removes a member from a club (see store.ClubMembers).
func (db *DB) RemoveMember(ctx context.Context, clubID string, account int64) error {
	err := db.inWriter(ctx, func(ctx context.Context, tx *wtx) error {
		old, err := member(ctx, tx, clubID, account)
		if err != nil {
			return err
		}
		if old.Role == store.ClubOwner {
			n, err := owners(ctx, tx, clubID)
			if err != nil {
				return err
			}
			if n <= 1 {
				return store.ErrConflict
			}
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM club_members WHERE club_id = ? AND account_id = ?`, clubID, account)
		return err
	})
	if err != nil {
		return fmt.Errorf("store/sqlite: remove member %d of club %q: %w", account, clubID, err)
	}
	return nil
}

// member reads one member (ErrNotFound for none).
func member(ctx context.Context, q queryer, clubID string, account int64) (store.ClubMembership, error) {
	m := store.ClubMembership{Club: clubID, Account: account}
	var role, added string
	err := q.QueryRowContext(ctx, `SELECT role, added_at FROM club_members WHERE club_id = ? AND account_id = ?`, clubID, account).
		Scan(&role, &added)
	if errors.Is(err, sql.ErrNoRows) {
		return m, store.ErrNotFound
	}
	if err != nil {
		return m, err
	}
	m.Role = store.ClubRole(role)
	if m.Added, err = parseTime(added); err != nil {
		return m, fmt.Errorf("%w: %w", store.ErrDamaged, err)
	}
	return m, nil
}

// ClubMember returns one member (see store.ClubMembers).
func (db *DB) ClubMember(ctx context.Context, clubID string, account int64) (store.ClubMembership, error) {
	m, err := member(ctx, db.rd, clubID, account)
	if err != nil {
		return m, fmt.Errorf("store/sqlite: member %d of club %q: %w", account, clubID, asDamaged(err))
	}
	return m, nil
}

// ClubMembers lists a club's members in the order they were added (see
// store.ClubMembers).
func (db *DB) ClubMembers(ctx context.Context, clubID string) ([]store.ClubMembership, error) {
	if err := clubExists(ctx, db.rd, clubID); err != nil {
		return nil, fmt.Errorf("store/sqlite: members of club %q: %w", clubID, asDamaged(err))
	}
	rows, err := db.rd.QueryContext(ctx, `SELECT account_id, role, added_at FROM club_members WHERE club_id = ?
		ORDER BY added_at, account_id`, clubID)
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: members of club %q: %w", clubID, asDamaged(err))
	}
	defer rows.Close()
	out := []store.ClubMembership{}
	for rows.Next() {
		m := store.ClubMembership{Club: clubID}
		var role, added string
		if err := rows.Scan(&m.Account, &role, &added); err != nil {
			return nil, fmt.Errorf("store/sqlite: members of club %q: %w", clubID, asDamaged(err))
		}
		m.Role = store.ClubRole(role)
		if m.Added, err = parseTime(added); err != nil {
			return nil, fmt.Errorf("store/sqlite: members of club %q: %w: %w", clubID, store.ErrDamaged, err)
		}
		out = append(out, m)
	}
	return out, asDamaged(rows.Err())
}

// AccountClubs lists the clubs an account belongs to or is linked in (see
// store.ClubMembers).
func (db *DB) AccountClubs(ctx context.Context, account int64) ([]store.AccountClub, error) {
	rows, err := db.rd.QueryContext(ctx, `SELECT c.id, c.name, COALESCE(m.role, ''), COALESCE(p.id, '')
		FROM clubs c
		LEFT JOIN club_members m ON m.club_id = c.id AND m.account_id = ?1
		LEFT JOIN club_people p ON p.club_id = c.id AND p.account_id = ?2
		WHERE m.account_id IS NOT NULL OR p.id IS NOT NULL
		ORDER BY c.name, c.id`, account, strconv.FormatInt(account, 10))
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: clubs of account %d: %w", account, asDamaged(err))
	}
	defer rows.Close()
	out := []store.AccountClub{}
	for rows.Next() {
		var c store.AccountClub
		var role string
		if err := rows.Scan(&c.Club, &c.Name, &role, &c.Person); err != nil {
			return nil, fmt.Errorf("store/sqlite: clubs of account %d: %w", account, asDamaged(err))
		}
		c.Role = store.ClubRole(role)
		out = append(out, c)
	}
	return out, asDamaged(rows.Err())
}

// LinkPerson links a roster entry to an account (see store.ClubMembers).
func (db *DB) LinkPerson(ctx context.Context, clubID, personID string, account int64) error {
	id := strconv.FormatInt(account, 10)
	err := db.inWriter(ctx, func(ctx context.Context, tx *wtx) error {
		if err := clubExists(ctx, tx, clubID); err != nil {
			return err
		}
		p, err := person(ctx, tx, clubID, personID)
		if err != nil {
			return err
		}
		if err := accountExists(ctx, tx, account); err != nil {
			return err
		}
		if p.AccountID != nil {
			if *p.AccountID == id {
				return nil
			}
			return store.ErrConflict
		}
		if p.MergedInto != "" {
			return store.ErrConflict
		}
		var other string
		switch err := tx.QueryRowContext(ctx, `SELECT id FROM club_people WHERE club_id = ? AND account_id = ?`, clubID, id).Scan(&other); {
		case err == nil:
			return store.ErrConflict
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE club_people SET account_id = ? WHERE club_id = ? AND id = ?`, id, clubID, personID)
		return err
	})
	if err != nil {
		return fmt.Errorf("store/sqlite: link %q of club %q to account %d: %w", personID, clubID, account, err)
	}
	return nil
}

// UnlinkPerson removes a roster entry's link (see store.ClubMembers).
func (db *DB) UnlinkPerson(ctx context.Context, clubID, personID string) error {
	err := db.inWriter(ctx, func(ctx context.Context, tx *wtx) error {
		if err := clubExists(ctx, tx, clubID); err != nil {
			return err
		}
		if _, err := person(ctx, tx, clubID, personID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE club_people SET account_id = NULL WHERE club_id = ? AND id = ?`, clubID, personID)
		return err
	})
	if err != nil {
		return fmt.Errorf("store/sqlite: unlink %q of club %q: %w", personID, clubID, err)
	}
	return nil
}
