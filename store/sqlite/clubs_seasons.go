package sqlite

import (
	"context"
	"fmt"

	"mafia/store"
)

// SaveSeason adds a season or changes the one of its id (see store.Clubs).
func (db *DB) SaveSeason(ctx context.Context, clubID string, s store.ClubSeason) error {
	err := db.inWriter(ctx, func(ctx context.Context, tx *wtx) error {
		if err := clubExists(ctx, tx, clubID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO club_seasons (club_id, id, name, from_day, to_day) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (club_id, id) DO UPDATE SET name = excluded.name, from_day = excluded.from_day, to_day = excluded.to_day`,
			clubID, s.ID, s.Name, s.From, s.To)
		return err
	})
	if err != nil {
		return fmt.Errorf("store/sqlite: save season %q of club %q: %w", s.ID, clubID, err)
	}
	return nil
}

// Seasons returns a club's seasons, earliest first (see store.Clubs).
func (db *DB) Seasons(ctx context.Context, clubID string) ([]store.ClubSeason, error) {
	if err := clubExists(ctx, db.rd, clubID); err != nil {
		return nil, fmt.Errorf("store/sqlite: seasons of club %q: %w", clubID, asDamaged(err))
	}
	rows, err := db.rd.QueryContext(ctx, `SELECT id, name, from_day, to_day FROM club_seasons WHERE club_id = ?
		ORDER BY from_day, to_day, id`, clubID)
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: seasons of club %q: %w", clubID, asDamaged(err))
	}
	defer rows.Close()
	out := []store.ClubSeason{}
	for rows.Next() {
		var s store.ClubSeason
		if err := rows.Scan(&s.ID, &s.Name, &s.From, &s.To); err != nil {
			return nil, fmt.Errorf("store/sqlite: seasons of club %q: %w", clubID, asDamaged(err))
		}
		out = append(out, s)
	}
	return out, asDamaged(rows.Err())
}

// AddClubGame counts a table's game for a club (see store.Clubs).
func (db *DB) AddClubGame(ctx context.Context, clubID string, g store.ClubGame) error {
	err := db.inWriter(ctx, func(ctx context.Context, tx *wtx) error {
		if err := clubExists(ctx, tx, clubID); err != nil {
			return err
		}
		if err := tableExists(ctx, tx, g.TableID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO club_games (club_id, table_id, day) VALUES (?, ?, ?)
			ON CONFLICT (club_id, table_id) DO NOTHING`, clubID, g.TableID, g.Day)
		return err
	})
	if err != nil {
		return fmt.Errorf("store/sqlite: count game %q for club %q: %w", g.TableID, clubID, err)
	}
	return nil
}

// ClubGames returns a club's games by day then table (see store.Clubs).
func (db *DB) ClubGames(ctx context.Context, clubID string) ([]store.ClubGame, error) {
	if err := clubExists(ctx, db.rd, clubID); err != nil {
		return nil, fmt.Errorf("store/sqlite: games of club %q: %w", clubID, asDamaged(err))
	}
	rows, err := db.rd.QueryContext(ctx, `SELECT table_id, day FROM club_games WHERE club_id = ? ORDER BY day, table_id`, clubID)
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: games of club %q: %w", clubID, asDamaged(err))
	}
	defer rows.Close()
	out := []store.ClubGame{}
	for rows.Next() {
		var g store.ClubGame
		if err := rows.Scan(&g.TableID, &g.Day); err != nil {
			return nil, fmt.Errorf("store/sqlite: games of club %q: %w", clubID, asDamaged(err))
		}
		out = append(out, g)
	}
	return out, asDamaged(rows.Err())
}
