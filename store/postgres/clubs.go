package postgres

// This file keeps the clubs: a club, its roster, its merges, its seasons and
// the index of its games (store.Clubs). Where SQLite checks that a club
// exists before a write, here the foreign keys do, in the write itself.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"mafia/store"
)

var _ store.Clubs = (*DB)(nil)

// clubExists is ErrNotFound for a club that does not exist.
func clubExists(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}, id string) error {
	var one int
	return rowsNotFound(q.QueryRow(ctx, `SELECT 1 FROM clubs WHERE id = $1`, id).Scan(&one))
}

// CreateClub records a new club (see store.Clubs); an id taken is
// store.ErrConflict.
func (db *DB) CreateClub(ctx context.Context, c store.Club) error {
	_, err := db.write1(ctx, refuseTaken, `INSERT INTO clubs (id, name, token_hash, scoring, created_ns) VALUES ($1, $2, $3, $4, $5)`,
		c.ID, c.Name, c.TokenHash, c.Scoring, nanos(c.CreatedAt))
	if err != nil {
		return fmt.Errorf("store/postgres: create club %q: %w", c.ID, err)
	}
	return nil
}

// Club returns a club (see store.Clubs).
func (db *DB) Club(ctx context.Context, id string) (store.Club, error) {
	var c store.Club
	var created int64
	err := db.pool.QueryRow(ctx, `SELECT id, name, token_hash, scoring, created_ns FROM clubs WHERE id = $1`, id).
		Scan(&c.ID, &c.Name, &c.TokenHash, &c.Scoring, &created)
	if err != nil {
		return store.Club{}, fmt.Errorf("store/postgres: club %q: %w", id, rowsNotFound(err))
	}
	c.CreatedAt = fromNanos(created)
	return c, nil
}

// UpdateClub saves a club's name and scoring (see store.Clubs).
func (db *DB) UpdateClub(ctx context.Context, c store.Club) error {
	return db.execOne(ctx, fmt.Sprintf("update club %q", c.ID), true,
		`UPDATE clubs SET name = $1, scoring = $2 WHERE id = $3`, c.Name, c.Scoring, c.ID)
}

// AddPerson adds an entry to a club's roster (see store.Clubs): a club
// that does not exist is ErrNotFound, an id taken ErrConflict.
func (db *DB) AddPerson(ctx context.Context, clubID string, p store.ClubPerson) error {
	if p.NameOnce {
		return db.addPersonOnce(ctx, clubID, p)
	}
	_, err := db.write1(ctx, refuseTaken, `INSERT INTO club_people (club_id, id, name, merged_into, account_id, created_ns)
		VALUES ($1, $2, $3, NULLIF($4, ''), $5, $6)`, clubID, p.ID, p.Name, p.MergedInto, p.AccountID, nanos(p.CreatedAt))
	if err != nil {
		return fmt.Errorf("store/postgres: add %q to club %q: %w", p.ID, clubID, err)
	}
	return nil
}

// addPersonOnce adds an entry unless an unmerged entry of the club has its
// name (store.SameName; then store.ErrConflict): the club's row is locked
// first, so that two callers adding one name check and add in turn.
func (db *DB) addPersonOnce(ctx context.Context, clubID string, p store.ClubPerson) error {
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		var one int
		if err := tx.QueryRow(ctx, `SELECT 1 FROM clubs WHERE id = $1 FOR NO KEY UPDATE`, clubID).Scan(&one); err != nil {
			return rowsNotFound(err)
		}
		rows, err := tx.Query(ctx, `SELECT name FROM club_people WHERE club_id = $1 AND merged_into IS NULL`, clubID)
		if err != nil {
			return err
		}
		names, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		for _, n := range names {
			if store.SameName(n, p.Name) {
				return store.ErrConflict
			}
		}
		_, err = tx.Exec(ctx, `INSERT INTO club_people (club_id, id, name, merged_into, account_id, created_ns)
			VALUES ($1, $2, $3, NULLIF($4, ''), $5, $6)`, clubID, p.ID, p.Name, p.MergedInto, p.AccountID, nanos(p.CreatedAt))
		return refuseTaken(err)
	})
	if err != nil {
		return fmt.Errorf("store/postgres: add %q to club %q: %w", p.ID, clubID, err)
	}
	return nil
}

// RenamePerson changes an entry's name (see store.Clubs).
func (db *DB) RenamePerson(ctx context.Context, clubID, personID, name string) error {
	return db.execOne(ctx, fmt.Sprintf("rename %q of club %q", personID, clubID), true,
		`UPDATE club_people SET name = $1 WHERE club_id = $2 AND id = $3`, name, clubID, personID)
}

// scanPerson reads one roster entry.
func scanPerson(r pgx.Row) (store.ClubPerson, error) {
	var p store.ClubPerson
	var merged *string
	var created int64
	err := r.Scan(&p.ID, &p.Name, &merged, &p.AccountID, &created)
	if merged != nil {
		p.MergedInto = *merged
	}
	p.CreatedAt = fromNanos(created)
	return p, err
}

// People returns a club's roster in the order it was made (see store.Clubs).
func (db *DB) People(ctx context.Context, clubID string) ([]store.ClubPerson, error) {
	out, err := listOfClub(ctx, db, clubID, `SELECT id, name, merged_into, account_id, created_ns FROM club_people
		WHERE club_id = $1 ORDER BY created_ns, id`, func(r pgx.CollectableRow) (store.ClubPerson, error) { return scanPerson(r) })
	if err != nil {
		return nil, fmt.Errorf("store/postgres: roster of club %q: %w", clubID, err)
	}
	return out, nil
}

// listOfClub reads a list of a club's in one transaction with the check
// that the club exists (ErrNotFound); a club with none is an empty list.
func listOfClub[T any](ctx context.Context, db *DB, clubID, q string, scan pgx.RowToFunc[T]) ([]T, error) {
	var out []T
	err := pgx.BeginTxFunc(ctx, db.pool, pgx.TxOptions{AccessMode: pgx.ReadOnly, IsoLevel: pgx.RepeatableRead}, func(tx pgx.Tx) error {
		if err := clubExists(ctx, tx, clubID); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, q, clubID)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, scan)
		return err
	})
	if err == nil && out == nil {
		out = []T{}
	}
	return out, rowsNotFound(err)
}

// MergePeople merges one roster entry into another and records the merge,
// in one transaction (see store.Clubs), moving from's link to an account,
// if any, to into (see store.ClubMembers). The club's row is locked for the
// transaction's length (FOR NO KEY UPDATE: entries may still be added), so
// that merges of one club, from any server, run one after the other: each
// sees the entries as the last left them and numbers its merge next.
func (db *DB) MergePeople(ctx context.Context, clubID, from, into string, at time.Time) (store.ClubMerge, error) {
	m := store.ClubMerge{From: from, Into: into, At: at.UTC()}
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		var one int
		if err := tx.QueryRow(ctx, `SELECT 1 FROM clubs WHERE id = $1 FOR NO KEY UPDATE`, clubID).Scan(&one); err != nil {
			return rowsNotFound(err)
		}
		var fromMerged, intoMerged, fromAccount, intoAccount *string
		err := tx.QueryRow(ctx, `SELECT f.merged_into, i.merged_into, f.account_id, i.account_id FROM club_people f, club_people i
			WHERE f.club_id = $1 AND f.id = $2 AND i.club_id = $1 AND i.id = $3`, clubID, from, into).
			Scan(&fromMerged, &intoMerged, &fromAccount, &intoAccount)
		if errors.Is(err, pgx.ErrNoRows) {
			return store.ErrConflict
		}
		if err != nil {
			return err
		}
		if from == into || fromMerged != nil || intoMerged != nil {
			return store.ErrConflict
		}
		if fromAccount != nil && intoAccount != nil {
			return store.ErrConflict // two accounts are two people (store.ClubMembers)
		}
		if err := tx.QueryRow(ctx, `SELECT COALESCE(MAX(seq) + 1, 0) FROM club_merges WHERE club_id = $1`, clubID).Scan(&m.Seq); err != nil {
			return err
		}
		// The link, if any, moves with the games to the entry they count
		// under (store.ClubMembers): from's is cleared first, for the
		// unique index of one entry per account per club.
		if _, err := tx.Exec(ctx, `UPDATE club_people SET merged_into = $1, account_id = NULL WHERE club_id = $2 AND id = $3`,
			into, clubID, from); err != nil {
			return err
		}
		if fromAccount != nil {
			if _, err := tx.Exec(ctx, `UPDATE club_people SET account_id = $1 WHERE club_id = $2 AND id = $3`, *fromAccount, clubID, into); err != nil {
				return err
			}
		}
		_, err = tx.Exec(ctx, `INSERT INTO club_merges (club_id, seq, from_id, into_id, at_ns) VALUES ($1, $2, $3, $4, $5)`,
			clubID, m.Seq, from, into, nanos(m.At))
		return err
	})
	if err != nil {
		return m, fmt.Errorf("store/postgres: merge %q into %q in club %q: %w", from, into, clubID, err)
	}
	return m, nil
}

// Merges returns a club's merges in order (see store.Clubs).
func (db *DB) Merges(ctx context.Context, clubID string) ([]store.ClubMerge, error) {
	out, err := listOfClub(ctx, db, clubID, `SELECT seq, from_id, into_id, at_ns FROM club_merges WHERE club_id = $1 ORDER BY seq`,
		func(r pgx.CollectableRow) (store.ClubMerge, error) {
			var m store.ClubMerge
			var at int64
			err := r.Scan(&m.Seq, &m.From, &m.Into, &at)
			m.At = fromNanos(at)
			return m, err
		})
	if err != nil {
		return nil, fmt.Errorf("store/postgres: merges of club %q: %w", clubID, err)
	}
	return out, nil
}

// SaveSeason adds a season or changes the one of its id (see store.Clubs).
func (db *DB) SaveSeason(ctx context.Context, clubID string, s store.ClubSeason) error {
	_, err := db.write1(ctx, refuseTaken, `INSERT INTO club_seasons (club_id, id, name, from_day, to_day) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (club_id, id) DO UPDATE SET name = excluded.name, from_day = excluded.from_day, to_day = excluded.to_day`,
		clubID, s.ID, s.Name, s.From, s.To)
	if err != nil {
		return fmt.Errorf("store/postgres: save season %q of club %q: %w", s.ID, clubID, err)
	}
	return nil
}

// Seasons returns a club's seasons, earliest first (see store.Clubs).
func (db *DB) Seasons(ctx context.Context, clubID string) ([]store.ClubSeason, error) {
	out, err := listOfClub(ctx, db, clubID, `SELECT id, name, from_day, to_day FROM club_seasons WHERE club_id = $1
		ORDER BY from_day, to_day, id`, func(r pgx.CollectableRow) (store.ClubSeason, error) {
		var s store.ClubSeason
		err := r.Scan(&s.ID, &s.Name, &s.From, &s.To)
		return s, err
	})
	if err != nil {
		return nil, fmt.Errorf("store/postgres: seasons of club %q: %w", clubID, err)
	}
	return out, nil
}

// AddClubGame counts a table's game for a club (see store.Clubs): a club or
// a table that does not exist is ErrNotFound; counting it again changes
// nothing.
func (db *DB) AddClubGame(ctx context.Context, clubID string, g store.ClubGame) error {
	_, err := db.write1(ctx, refuseTaken, `INSERT INTO club_games (club_id, table_id, day) VALUES ($1, $2, $3)
		ON CONFLICT (club_id, table_id) DO NOTHING`, clubID, g.TableID, g.Day)
	if err != nil {
		return fmt.Errorf("store/postgres: count game %q for club %q: %w", g.TableID, clubID, err)
	}
	return nil
}

// ClubGames returns a club's games by day then table (see store.Clubs).
func (db *DB) ClubGames(ctx context.Context, clubID string) ([]store.ClubGame, error) {
	out, err := listOfClub(ctx, db, clubID, `SELECT table_id, day FROM club_games WHERE club_id = $1
		ORDER BY day, table_id COLLATE "C"`, func(r pgx.CollectableRow) (store.ClubGame, error) {
		var g store.ClubGame
		err := r.Scan(&g.TableID, &g.Day)
		return g, err
	})
	if err != nil {
		return nil, fmt.Errorf("store/postgres: games of club %q: %w", clubID, err)
	}
	return out, nil
}
