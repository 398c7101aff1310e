package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"mafia/store"
)

var _ store.Clubs = (*DB)(nil)

// clubExists is ErrNotFound for a club that does not exist.
func clubExists(ctx context.Context, q queryer, id string) error {
	var one int
	err := q.QueryRowContext(ctx, `SELECT 1 FROM clubs WHERE id = ?`, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return store.ErrNotFound
	}
	return err
}

// CreateClub records a new club (see store.Clubs); an id taken is
// store.ErrConflict.
func (db *DB) CreateClub(ctx context.Context, c store.Club) error {
	err := db.inWriter(ctx, func(ctx context.Context, tx *wtx) error {
		switch err := clubExists(ctx, tx, c.ID); {
		case err == nil:
			return store.ErrConflict
		case !errors.Is(err, store.ErrNotFound):
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO clubs (id, name, token_hash, scoring, created_at) VALUES (?, ?, ?, ?, ?)`,
			c.ID, c.Name, c.TokenHash, c.Scoring, formatTime(c.CreatedAt))
		return err
	})
	if err != nil {
		return fmt.Errorf("store/sqlite: create club %q: %w", c.ID, err)
	}
	return nil
}

// Club returns a club (see store.Clubs).
func (db *DB) Club(ctx context.Context, id string) (store.Club, error) {
	var c store.Club
	var created string
	err := db.rd.QueryRowContext(ctx, `SELECT id, name, token_hash, scoring, created_at FROM clubs WHERE id = ?`, id).
		Scan(&c.ID, &c.Name, &c.TokenHash, &c.Scoring, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return c, fmt.Errorf("store/sqlite: club %q: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return c, fmt.Errorf("store/sqlite: club %q: %w", id, asDamaged(err))
	}
	if c.CreatedAt, err = parseTime(created); err != nil {
		return c, fmt.Errorf("store/sqlite: club %q: %w: %w", id, store.ErrDamaged, err)
	}
	return c, nil
}

// UpdateClub saves a club's name and scoring (see store.Clubs).
func (db *DB) UpdateClub(ctx context.Context, c store.Club) error {
	err := db.inWriter(ctx, func(ctx context.Context, tx *wtx) error {
		if err := clubExists(ctx, tx, c.ID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE clubs SET name = ?, scoring = ? WHERE id = ?`, c.Name, c.Scoring, c.ID)
		return err
	})
	if err != nil {
		return fmt.Errorf("store/sqlite: update club %q: %w", c.ID, err)
	}
	return nil
}

// AddPerson adds an entry to a club's roster (see store.Clubs).
func (db *DB) AddPerson(ctx context.Context, clubID string, p store.ClubPerson) error {
	err := db.inWriter(ctx, func(ctx context.Context, tx *wtx) error {
		if err := clubExists(ctx, tx, clubID); err != nil {
			return err
		}
		var one int
		switch err := tx.QueryRowContext(ctx, `SELECT 1 FROM club_people WHERE club_id = ? AND id = ?`, clubID, p.ID).Scan(&one); {
		case err == nil:
			return store.ErrConflict
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		if p.NameOnce {
			if err := nameFree(ctx, tx, clubID, p.Name); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO club_people (club_id, id, name, merged_into, account_id, created_at)
			VALUES (?, ?, ?, NULLIF(?, ''), ?, ?)`, clubID, p.ID, p.Name, p.MergedInto, p.AccountID, formatTime(p.CreatedAt))
		return err
	})
	if err != nil {
		return fmt.Errorf("store/sqlite: add %q to club %q: %w", p.ID, clubID, err)
	}
	return nil
}

// nameFree is store.ErrConflict when an unmerged entry of club clubID has
// the name (store.SameName); the writer's transaction makes the check and
// the insert after it one step.
func nameFree(ctx context.Context, tx *wtx, clubID, name string) error {
	rows, err := tx.QueryContext(ctx, `SELECT name FROM club_people WHERE club_id = ? AND merged_into IS NULL`, clubID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return err
		}
		if store.SameName(n, name) {
			return store.ErrConflict
		}
	}
	return rows.Err()
}

// RenamePerson changes an entry's name (see store.Clubs).
func (db *DB) RenamePerson(ctx context.Context, clubID, personID, name string) error {
	err := db.inWriter(ctx, func(ctx context.Context, tx *wtx) error {
		if _, err := person(ctx, tx, clubID, personID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE club_people SET name = ? WHERE club_id = ? AND id = ?`, name, clubID, personID)
		return err
	})
	if err != nil {
		return fmt.Errorf("store/sqlite: rename %q of club %q: %w", personID, clubID, err)
	}
	return nil
}

// person reads one entry (ErrNotFound for none).
func person(ctx context.Context, q queryer, clubID, id string) (store.ClubPerson, error) {
	var p store.ClubPerson
	var merged, account sql.NullString
	var created string
	err := q.QueryRowContext(ctx, `SELECT id, name, merged_into, account_id, created_at FROM club_people
		WHERE club_id = ? AND id = ?`, clubID, id).Scan(&p.ID, &p.Name, &merged, &account, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return p, store.ErrNotFound
	}
	if err != nil {
		return p, err
	}
	return fillPerson(p, merged, account, created)
}

func fillPerson(p store.ClubPerson, merged, account sql.NullString, created string) (store.ClubPerson, error) {
	p.MergedInto = merged.String
	if account.Valid {
		a := account.String
		p.AccountID = &a
	}
	var err error
	if p.CreatedAt, err = parseTime(created); err != nil {
		return p, fmt.Errorf("%w: %w", store.ErrDamaged, err)
	}
	return p, nil
}

// People returns a club's roster in the order it was made (see store.Clubs).
func (db *DB) People(ctx context.Context, clubID string) ([]store.ClubPerson, error) {
	if err := clubExists(ctx, db.rd, clubID); err != nil {
		return nil, fmt.Errorf("store/sqlite: roster of club %q: %w", clubID, asDamaged(err))
	}
	rows, err := db.rd.QueryContext(ctx, `SELECT id, name, merged_into, account_id, created_at FROM club_people
		WHERE club_id = ? ORDER BY created_at, id`, clubID)
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: roster of club %q: %w", clubID, asDamaged(err))
	}
	defer rows.Close()
	out := []store.ClubPerson{}
	for rows.Next() {
		var p store.ClubPerson
		var merged, account sql.NullString
		var created string
		if err := rows.Scan(&p.ID, &p.Name, &merged, &account, &created); err != nil {
			return nil, fmt.Errorf("store/sqlite: roster of club %q: %w", clubID, asDamaged(err))
		}
		if p, err = fillPerson(p, merged, account, created); err != nil {
			return nil, fmt.Errorf("store/sqlite: roster of club %q: %w", clubID, err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store/sqlite: roster of club %q: %w", clubID, asDamaged(err))
	}
	return out, nil
}
