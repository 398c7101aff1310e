package sqlite

import (
	"context"
	"errors"
	"fmt"
	"time"

	"mafia/store"
)

// MergePeople merges one roster entry into another and records the merge,
// in one transaction (see store.Clubs).
func (db *DB) MergePeople(ctx context.Context, clubID, from, into string, at time.Time) (store.ClubMerge, error) {
	m := store.ClubMerge{From: from, Into: into, At: at.UTC()}
	err := db.inWriter(ctx, func(ctx context.Context, tx *wtx) error {
		if err := clubExists(ctx, tx, clubID); err != nil {
			return err
		}
		f, err1 := person(ctx, tx, clubID, from)
		i, err2 := person(ctx, tx, clubID, into)
		for _, err := range []error{err1, err2} {
			switch {
			case errors.Is(err, store.ErrNotFound):
				return store.ErrConflict
			case err != nil:
				return err
			}
		}
		if from == into || f.MergedInto != "" || i.MergedInto != "" {
			return store.ErrConflict
		}
		if f.AccountID != nil && i.AccountID != nil {
			return store.ErrConflict // two accounts are two people
		}
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq) + 1, 0) FROM club_merges WHERE club_id = ?`, clubID).Scan(&m.Seq); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE club_people SET merged_into = ?, account_id = NULL WHERE club_id = ? AND id = ?`, into, clubID, from); err != nil {
			return err
		}
		if f.AccountID != nil { // the link moves with the games (store.ClubMembers)
			if _, err := tx.ExecContext(ctx, `UPDATE club_people SET account_id = ? WHERE club_id = ? AND id = ?`, *f.AccountID, clubID, into); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO club_merges (club_id, seq, from_id, into_id, at) VALUES (?, ?, ?, ?, ?)`,
			clubID, m.Seq, from, into, formatTime(m.At))
		return err
	})
	if err != nil {
		return m, fmt.Errorf("store/sqlite: merge %q into %q in club %q: %w", from, into, clubID, err)
	}
	return m, nil
}

// Merges returns a club's merges in order (see store.Clubs).
func (db *DB) Merges(ctx context.Context, clubID string) ([]store.ClubMerge, error) {
	if err := clubExists(ctx, db.rd, clubID); err != nil {
		return nil, fmt.Errorf("store/sqlite: merges of club %q: %w", clubID, asDamaged(err))
	}
	rows, err := db.rd.QueryContext(ctx, `SELECT seq, from_id, into_id, at FROM club_merges WHERE club_id = ? ORDER BY seq`, clubID)
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: merges of club %q: %w", clubID, asDamaged(err))
	}
	defer rows.Close()
	out := []store.ClubMerge{}
	for rows.Next() {
		var m store.ClubMerge
		var at string
		if err := rows.Scan(&m.Seq, &m.From, &m.Into, &at); err != nil {
			return nil, fmt.Errorf("store/sqlite: merges of club %q: %w", clubID, asDamaged(err))
		}
		if m.At, err = parseTime(at); err != nil {
			return nil, fmt.Errorf("store/sqlite: merges of club %q: %w: %w", clubID, store.ErrDamaged, err)
		}
		out = append(out, m)
	}
	return out, asDamaged(rows.Err())
}
