package postgres

// This file keeps the clubs' tournaments (store.Tournaments): the club's
// foreign key refuses a tournament of no club, and an update checks and
// bumps the version in one statement.

import (
	"context"
	"fmt"

	"mafia/store"
)

var _ store.Tournaments = (*DB)(nil)

// CreateTournament records a new tournament of a club at version 1 (see
// store.Tournaments).
func (db *DB) CreateTournament(ctx context.Context, t store.Tournament) error {
	_, err := db.write1(ctx, refuseTaken, `INSERT INTO tournaments (id, club_id, name, state, data, version, created_ns, referee_account)
		VALUES ($1, $2, $3, $4, $5, 1, $6, $7)`, t.ID, t.ClubID, t.Name, t.State, t.Data, nanos(t.CreatedAt), t.RefereeAccount)
	if err != nil {
		return fmt.Errorf("store/postgres: create tournament %q: %w", t.ID, err)
	}
	return nil
}

const tournamentColumns = `id, club_id, name, state, data, version, created_ns, referee_account`

func scanTournament(row interface{ Scan(...any) error }) (store.Tournament, error) {
	var t store.Tournament
	var created int64
	err := row.Scan(&t.ID, &t.ClubID, &t.Name, &t.State, &t.Data, &t.Version, &created, &t.RefereeAccount)
	t.CreatedAt = fromNanos(created)
	return t, err
}

// Tournament returns a tournament (see store.Tournaments).
func (db *DB) Tournament(ctx context.Context, id string) (store.Tournament, error) {
	t, err := scanTournament(db.pool.QueryRow(ctx, `SELECT `+tournamentColumns+` FROM tournaments WHERE id = $1`, id))
	if err != nil {
		return store.Tournament{}, fmt.Errorf("store/postgres: tournament %q: %w", id, rowsNotFound(err))
	}
	return t, nil
}

// ClubTournaments returns a club's tournaments, oldest first (see
// store.Tournaments).
func (db *DB) ClubTournaments(ctx context.Context, clubID string) ([]store.Tournament, error) {
	if err := clubExists(ctx, db.pool, clubID); err != nil {
		return nil, fmt.Errorf("store/postgres: tournaments of club %q: %w", clubID, err)
	}
	rows, err := db.pool.Query(ctx, `SELECT `+tournamentColumns+` FROM tournaments WHERE club_id = $1
		ORDER BY created_ns, id`, clubID)
	if err != nil {
		return nil, fmt.Errorf("store/postgres: tournaments of club %q: %w", clubID, asStoreError(err))
	}
	defer rows.Close()
	out := []store.Tournament{}
	for rows.Next() {
		t, err := scanTournament(rows)
		if err != nil {
			return nil, fmt.Errorf("store/postgres: tournaments of club %q: %w", clubID, asStoreError(err))
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store/postgres: tournaments of club %q: %w", clubID, asStoreError(err))
	}
	return out, nil
}

// RefereeTournaments returns the tournaments whose referee is account,
// oldest first, at most limit (see store.Tournaments).
func (db *DB) RefereeTournaments(ctx context.Context, account int64, limit int) ([]store.Tournament, error) {
	out := []store.Tournament{}
	if account == 0 || limit <= 0 {
		return out, nil
	}
	rows, err := db.pool.Query(ctx, `SELECT `+tournamentColumns+` FROM tournaments WHERE referee_account = $1
		ORDER BY created_ns, id LIMIT $2`, account, limit)
	if err != nil {
		return nil, fmt.Errorf("store/postgres: tournaments refereed by %d: %w", account, asStoreError(err))
	}
	defer rows.Close()
	for rows.Next() {
		t, err := scanTournament(rows)
		if err != nil {
			return nil, fmt.Errorf("store/postgres: tournaments refereed by %d: %w", account, asStoreError(err))
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store/postgres: tournaments refereed by %d: %w", account, asStoreError(err))
	}
	return out, nil
}

// UpdateTournament saves a tournament at the version it was read at (see
// store.Tournaments): a version no longer the tournament's is
// store.ErrConflict, a tournament that is not there store.ErrNotFound.
func (db *DB) UpdateTournament(ctx context.Context, t store.Tournament) (int, error) {
	tag, err := db.write1(ctx, nil, `UPDATE tournaments SET name = $1, state = $2, data = $3, referee_account = $6, version = version + 1
		WHERE id = $4 AND version = $5`, t.Name, t.State, t.Data, t.ID, t.Version, t.RefereeAccount)
	if err == nil && tag.RowsAffected() == 0 {
		var one int
		if err = rowsNotFound(db.pool.QueryRow(ctx, `SELECT 1 FROM tournaments WHERE id = $1`, t.ID).Scan(&one)); err == nil {
			err = store.ErrConflict
		}
	}
	if err != nil {
		return 0, fmt.Errorf("store/postgres: update tournament %q: %w", t.ID, asStoreError(err))
	}
	return t.Version + 1, nil
}
