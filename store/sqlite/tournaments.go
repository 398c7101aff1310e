package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"mafia/store"
)

var _ store.Tournaments = (*DB)(nil)

// CreateTournament records a new tournament of a club at version 1 (see
// store.Tournaments).
func (db *DB) CreateTournament(ctx context.Context, t store.Tournament) error {
	err := db.inWriter(ctx, func(ctx context.Context, tx *wtx) error {
		if err := clubExists(ctx, tx, t.ClubID); err != nil {
			return err
		}
		var one int
		switch err := tx.QueryRowContext(ctx, `SELECT 1 FROM tournaments WHERE id = ?`, t.ID).Scan(&one); {
		case err == nil:
			return store.ErrConflict
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO tournaments (id, club_id, name, state, data, version, created_at, referee_account)
			VALUES (?, ?, ?, ?, ?, 1, ?, ?)`, t.ID, t.ClubID, t.Name, t.State, t.Data, formatTime(t.CreatedAt), t.RefereeAccount)
		return err
	})
	if err != nil {
		return fmt.Errorf("store/sqlite: create tournament %q: %w", t.ID, err)
	}
	return nil
}

const tournamentColumns = `id, club_id, name, state, data, version, created_at, referee_account`

func scanTournament(row interface{ Scan(...any) error }) (store.Tournament, error) {
	var t store.Tournament
	var created string
	if err := row.Scan(&t.ID, &t.ClubID, &t.Name, &t.State, &t.Data, &t.Version, &created, &t.RefereeAccount); err != nil {
		return t, err
	}
	var err error
	t.CreatedAt, err = parseTime(created)
	return t, err
}

// Tournament returns a tournament (see store.Tournaments).
func (db *DB) Tournament(ctx context.Context, id string) (store.Tournament, error) {
	t, err := scanTournament(db.rd.QueryRowContext(ctx, `SELECT `+tournamentColumns+` FROM tournaments WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return t, fmt.Errorf("store/sqlite: tournament %q: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return t, fmt.Errorf("store/sqlite: tournament %q: %w", id, asDamaged(err))
	}
	return t, nil
}

// ClubTournaments returns a club's tournaments, oldest first (see
// store.Tournaments).
func (db *DB) ClubTournaments(ctx context.Context, clubID string) ([]store.Tournament, error) {
	if err := clubExists(ctx, db.rd, clubID); err != nil {
		return nil, fmt.Errorf("store/sqlite: tournaments of club %q: %w", clubID, asDamaged(err))
	}
	rows, err := db.rd.QueryContext(ctx, `SELECT `+tournamentColumns+` FROM tournaments WHERE club_id = ?
		ORDER BY created_at, id`, clubID)
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: tournaments of club %q: %w", clubID, asDamaged(err))
	}
	defer rows.Close()
	out := []store.Tournament{}
	for rows.Next() {
		t, err := scanTournament(rows)
		if err != nil {
			return nil, fmt.Errorf("store/sqlite: tournaments of club %q: %w", clubID, asDamaged(err))
		}
		out = append(out, t)
	}
	return out, asDamaged(rows.Err())
}

// RefereeTournaments returns the tournaments whose referee is account,
// oldest first, at most limit (see store.Tournaments).
func (db *DB) RefereeTournaments(ctx context.Context, account int64, limit int) ([]store.Tournament, error) {
	out := []store.Tournament{}
	if account == 0 || limit <= 0 {
		return out, nil
	}
	rows, err := db.rd.QueryContext(ctx, `SELECT `+tournamentColumns+` FROM tournaments WHERE referee_account = ?
		ORDER BY created_at, id LIMIT ?`, account, limit)
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: tournaments refereed by %d: %w", account, asDamaged(err))
	}
	defer rows.Close()
	for rows.Next() {
		t, err := scanTournament(rows)
		if err != nil {
			return nil, fmt.Errorf("store/sqlite: tournaments refereed by %d: %w", account, asDamaged(err))
		}
		out = append(out, t)
	}
	return out, asDamaged(rows.Err())
}

// UpdateTournament saves a tournament at the version it was read at (see
// store.Tournaments).
func (db *DB) UpdateTournament(ctx context.Context, t store.Tournament) (int, error) {
	err := db.inWriter(ctx, func(ctx context.Context, tx *wtx) error {
		var v int
		err := tx.QueryRowContext(ctx, `SELECT version FROM tournaments WHERE id = ?`, t.ID).Scan(&v)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return store.ErrNotFound
		case err != nil:
			return err
		case v != t.Version:
			return store.ErrConflict
		}
		_, err = tx.ExecContext(ctx, `UPDATE tournaments SET name = ?, state = ?, data = ?, referee_account = ?, version = version + 1 WHERE id = ?`,
			t.Name, t.State, t.Data, t.RefereeAccount, t.ID)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store/sqlite: update tournament %q: %w", t.ID, err)
	}
	return t.Version + 1, nil
}
