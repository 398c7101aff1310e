package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"mafia/rating"
	"mafia/store"
)

var _ store.Ratings = (*DB)(nil)

// RateGame rates a finished game (see store.Ratings) in the writer's next
// group commit: the players' ratings are read, the game computed with
// rating.ForMafia() and the result written in the same transaction, so two
// games of the same players rated at once both count. The room or the
// server calls it when a rated table's game ends, with the seats turned to
// the players' ids (accounts'); docs/ratings.md.
func (db *DB) RateGame(ctx context.Context, g store.RatedGame) ([]rating.Update, error) {
	if g.Game == "" {
		return nil, fmt.Errorf("store/sqlite: rate a game without an id: %w", rating.ErrBadInput)
	}
	// The method's refusals come before the writer, with new ratings.
	if _, err := rating.Game(rating.ForMafia(), g.Seats, g.Result, nil); err != nil {
		return nil, fmt.Errorf("store/sqlite: rate %q: %w", g.Game, err)
	}
	winner := g.Result.Winner.String()
	if g.Result.Draw {
		winner = "draw"
	}
	at := g.At.UnixMilli()
	var out []rating.Update
	err := db.inWriter(ctx, func(ctx context.Context, tx *wtx) error {
		var rated bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM rated_games WHERE game = ?)`, g.Game).Scan(&rated); err != nil {
			return err
		}
		if rated {
			return store.ErrConflict
		}
		current := make(map[rating.Key]rating.Rating)
		for _, s := range g.Seats {
			rows, err := tx.QueryContext(ctx, `SELECT kind, mu, sigma FROM ratings WHERE player = ?`, s.Player)
			if err != nil {
				return err
			}
			for rows.Next() {
				var k string
				var r rating.Rating
				if err := rows.Scan(&k, &r.Mu, &r.Sigma); err != nil {
					rows.Close()
					return err
				}
				current[rating.Key{Player: s.Player, Kind: rating.Kind(k)}] = r
			}
			if err := errors.Join(rows.Err(), rows.Close()); err != nil {
				return err
			}
		}
		us, err := rating.Game(rating.ForMafia(), g.Seats, g.Result, current)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO rated_games (game, at, winner) VALUES (?, ?, ?)`, g.Game, at, winner); err != nil {
			return err
		}
		for _, u := range us {
			won := boolInt(u.Won)
			if _, err := tx.ExecContext(ctx, `INSERT INTO ratings (player, kind, mu, sigma, games, wins, at)
				VALUES (?, ?, ?, ?, 1, ?, ?)
				ON CONFLICT (player, kind) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,
					games = games + 1, wins = wins + excluded.wins, at = MAX(at, excluded.at)`,
				u.Player, string(u.Kind), u.After.Mu, u.After.Sigma, won, at); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO rating_changes (game, player, kind, side, mu_before, sigma_before,
				mu, sigma, won, left_early, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				g.Game, u.Player, string(u.Kind), u.Side.String(), u.Before.Mu, u.Before.Sigma, u.After.Mu, u.After.Sigma,
				won, boolInt(u.Left), at); err != nil {
				return err
			}
		}
		out = us
		return nil
	})
	if errors.Is(err, store.ErrConflict) {
		return nil, fmt.Errorf("store/sqlite: rate %q: %w", g.Game, store.ErrAlreadyRated)
	}
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: rate %q: %w", g.Game, err)
	}
	return out, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// PlayerRatings returns a player's ratings (see store.Ratings).
func (db *DB) PlayerRatings(ctx context.Context, player string) ([]store.PlayerRating, error) {
	rows, err := db.rd.QueryContext(ctx, `SELECT kind, mu, sigma, games, wins, at FROM ratings WHERE player = ?
		ORDER BY CASE kind WHEN 'overall' THEN 0 WHEN 'town' THEN 1 ELSE 2 END`, player)
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: ratings of %q: %w", player, asDamaged(err))
	}
	defer rows.Close()
	var out []store.PlayerRating
	for rows.Next() {
		p := store.PlayerRating{Player: player}
		var k string
		var at int64
		if err := rows.Scan(&k, &p.Rating.Mu, &p.Rating.Sigma, &p.Games, &p.Wins, &at); err != nil {
			return nil, fmt.Errorf("store/sqlite: ratings of %q: %w", player, asDamaged(err))
		}
		p.Kind, p.At = rating.Kind(k), time.UnixMilli(at).UTC()
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store/sqlite: ratings of %q: %w", player, asDamaged(err))
	}
	return out, nil
}

// RatingHistory returns a player's rating changes, the latest first (see
// store.Ratings).
func (db *DB) RatingHistory(ctx context.Context, player string, limit int) ([]store.RatingChange, error) {
	if limit <= 0 {
		limit = -1
	}
	rows, err := db.rd.QueryContext(ctx, `SELECT game, at, kind, side, mu_before, sigma_before, mu, sigma, won, left_early
		FROM rating_changes WHERE player = ?
		ORDER BY at DESC, game DESC, CASE kind WHEN 'overall' THEN 0 WHEN 'town' THEN 1 ELSE 2 END LIMIT ?`, player, limit)
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: rating history of %q: %w", player, asDamaged(err))
	}
	defer rows.Close()
	var out []store.RatingChange
	for rows.Next() {
		c := store.RatingChange{Player: player}
		var at int64
		var kind, side string
		if err := rows.Scan(&c.Game, &at, &kind, &side, &c.Before.Mu, &c.Before.Sigma, &c.After.Mu, &c.After.Sigma,
			&c.Won, &c.Left); err != nil {
			return nil, fmt.Errorf("store/sqlite: rating history of %q: %w", player, asDamaged(err))
		}
		sd, ok := rating.ParseSide(side)
		if !ok {
			return nil, fmt.Errorf("store/sqlite: rating history of %q: side %q: %w", player, side, store.ErrDamaged)
		}
		c.At, c.Kind, c.Side = time.UnixMilli(at).UTC(), rating.Kind(kind), sd
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store/sqlite: rating history of %q: %w", player, asDamaged(err))
	}
	return out, nil
}

// Leaderboard returns a leaderboard (see store.Ratings): of the ratings
// now, or for a season, of the players who played in it, each with the
// rating after their last game in it and their games and wins in it.
func (db *DB) Leaderboard(ctx context.Context, q store.LeaderboardQuery) ([]store.Standing, error) {
	q = q.WithDefaults()
	// The players' filter: every player (a null list), or those of the
	// JSON array.
	var players any
	if q.Players != nil {
		b, err := json.Marshal(q.Players)
		if err != nil {
			return nil, fmt.Errorf("store/sqlite: leaderboard: %w", err)
		}
		players = string(b)
	}
	var rows *sql.Rows
	var err error
	from, to, season := q.Season()
	if !season {
		rows, err = db.rd.QueryContext(ctx, `SELECT player, mu, sigma, games, wins FROM ratings WHERE kind = ?
				AND (? IS NULL OR player IN (SELECT value FROM json_each(?)))
			ORDER BY mu - 3 * sigma DESC, games DESC, player LIMIT ? OFFSET ?`, string(q.Kind), players, players, q.Limit, q.Offset)
	} else {
		rows, err = db.rd.QueryContext(ctx, `SELECT player, mu, sigma, games, wins FROM (
				SELECT player, mu, sigma, COUNT(*) OVER p AS games, SUM(won) OVER p AS wins,
					ROW_NUMBER() OVER (PARTITION BY player ORDER BY at DESC, game DESC) AS last
				FROM rating_changes WHERE kind = ? AND at >= ? AND at < ?
					AND (? IS NULL OR player IN (SELECT value FROM json_each(?)))
				WINDOW p AS (PARTITION BY player))
			WHERE last = 1 ORDER BY mu - 3 * sigma DESC, games DESC, player LIMIT ? OFFSET ?`,
			string(q.Kind), from, to, players, players, q.Limit, q.Offset)
	}
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: leaderboard: %w", asDamaged(err))
	}
	defer rows.Close()
	var out []store.Standing
	for rows.Next() {
		s := store.Standing{Rank: q.Offset + len(out) + 1}
		if err := rows.Scan(&s.Player, &s.Rating.Mu, &s.Rating.Sigma, &s.Games, &s.Wins); err != nil {
			return nil, fmt.Errorf("store/sqlite: leaderboard: %w", asDamaged(err))
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store/sqlite: leaderboard: %w", asDamaged(err))
	}
	return out, nil
}
