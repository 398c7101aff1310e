package postgres

// This file keeps the players' ratings (store.Ratings).

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"mafia/rating"
	"mafia/store"
)

var _ store.Ratings = (*DB)(nil)

// lockClassRatings is the first key of the advisory locks RateGame takes on
// its players (the two-key form, a key space apart from the one-key locks
// goose takes while migrating).
const lockClassRatings = 0x4d52 // "MR"

// playerLocks are the second keys of the advisory locks on a game's
// players: a hash of each id, without repeats, in order, so that two games
// sharing players lock them in the same order and never wait on each other
// in a circle. Two players of one hash share a lock, which only makes
// their games wait for each other.
func playerLocks(seats []rating.Seat) []int32 {
	var out []int32
	for _, s := range seats {
		h := fnv.New32a()
		h.Write([]byte(s.Player))
		out = append(out, int32(h.Sum32()))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// RateGame rates a finished game (see store.Ratings) in one transaction:
// the game is recorded as rated (its primary key makes a second rating of
// it, from any server, ErrAlreadyRated), its players' advisory locks are
// taken (a game of the same players rated at once, on any server, waits for
// this one to commit), their ratings read, the game computed with
// rating.ForMafia(), and the new ratings and the history written.
func (db *DB) RateGame(ctx context.Context, g store.RatedGame) ([]rating.Update, error) {
	if g.Game == "" {
		return nil, fmt.Errorf("store/postgres: rate a game without an id: %w", rating.ErrBadInput)
	}
	// The method's refusals come before the transaction, with new ratings.
	if _, err := rating.Game(rating.ForMafia(), g.Seats, g.Result, nil); err != nil {
		return nil, fmt.Errorf("store/postgres: rate %q: %w", g.Game, err)
	}
	winner := g.Result.Winner.String()
	if g.Result.Draw {
		winner = "draw"
	}
	at := g.At.UnixMilli()
	players := make([]string, len(g.Seats))
	for i, s := range g.Seats {
		players[i] = s.Player
	}
	var out []rating.Update
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO rated_games (game, at, winner) VALUES ($1, $2, $3) ON CONFLICT (game) DO NOTHING`,
			g.Game, at, winner)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return store.ErrConflict // a refusal, not a failure of the store: ErrAlreadyRated below
		}
		for _, k := range playerLocks(g.Seats) {
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, $2)`, int32(lockClassRatings), k); err != nil {
				return err
			}
		}
		rows, err := tx.Query(ctx, `SELECT player, kind, mu, sigma FROM ratings WHERE player = ANY($1)`, players)
		if err != nil {
			return err
		}
		current := make(map[rating.Key]rating.Rating)
		var k rating.Key
		var r rating.Rating
		_, err = pgx.ForEachRow(rows, []any{&k.Player, &k.Kind, &r.Mu, &r.Sigma}, func() error {
			current[k] = r
			return nil
		})
		if err != nil {
			return err
		}
		us, err := rating.Game(rating.ForMafia(), g.Seats, g.Result, current)
		if err != nil {
			return err
		}
		var b pgx.Batch
		for _, u := range us {
			won := 0
			if u.Won {
				won = 1
			}
			b.Queue(`INSERT INTO ratings (player, kind, mu, sigma, games, wins, at) VALUES ($1, $2, $3, $4, 1, $5, $6)
				ON CONFLICT (player, kind) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,
					games = ratings.games + 1, wins = ratings.wins + excluded.wins, at = GREATEST(ratings.at, excluded.at)`,
				u.Player, string(u.Kind), u.After.Mu, u.After.Sigma, won, at)
			b.Queue(`INSERT INTO rating_changes (game, player, kind, side, mu_before, sigma_before, mu, sigma, won, left_early, at)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
				g.Game, u.Player, string(u.Kind), u.Side.String(), u.Before.Mu, u.Before.Sigma, u.After.Mu, u.After.Sigma,
				u.Won, u.Left, at)
		}
		if err := tx.SendBatch(ctx, &b).Close(); err != nil {
			return err
		}
		out = us
		return nil
	})
	if errors.Is(err, store.ErrConflict) {
		return nil, fmt.Errorf("store/postgres: rate %q: %w", g.Game, store.ErrAlreadyRated)
	}
	if err != nil {
		return nil, fmt.Errorf("store/postgres: rate %q: %w", g.Game, err)
	}
	return out, nil
}

// kindOrder orders a player's rows by rating.Kinds.
const kindOrder = `CASE kind WHEN 'overall' THEN 0 WHEN 'town' THEN 1 ELSE 2 END`

// PlayerRatings returns a player's ratings (see store.Ratings).
func (db *DB) PlayerRatings(ctx context.Context, player string) ([]store.PlayerRating, error) {
	rows, err := db.pool.Query(ctx, `SELECT kind, mu, sigma, games, wins, at FROM ratings WHERE player = $1
		ORDER BY `+kindOrder, player)
	if err != nil {
		return nil, fmt.Errorf("store/postgres: ratings of %q: %w", player, rowsNotFound(err))
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.PlayerRating, error) {
		p := store.PlayerRating{Player: player}
		var at int64
		err := r.Scan(&p.Kind, &p.Rating.Mu, &p.Rating.Sigma, &p.Games, &p.Wins, &at)
		p.At = time.UnixMilli(at).UTC()
		return p, err
	})
	if err != nil {
		return nil, fmt.Errorf("store/postgres: ratings of %q: %w", player, rowsNotFound(err))
	}
	return out, nil
}

// RatingHistory returns a player's rating changes, the latest first (see
// store.Ratings).
func (db *DB) RatingHistory(ctx context.Context, player string, limit int) ([]store.RatingChange, error) {
	var lim *int
	if limit > 0 {
		lim = &limit
	}
	rows, err := db.pool.Query(ctx, `SELECT game, at, kind, side, mu_before, sigma_before, mu, sigma, won, left_early
		FROM rating_changes WHERE player = $1 ORDER BY at DESC, game DESC, `+kindOrder+` LIMIT $2`, player, lim)
	if err != nil {
		return nil, fmt.Errorf("store/postgres: rating history of %q: %w", player, rowsNotFound(err))
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.RatingChange, error) {
		c := store.RatingChange{Player: player}
		var at int64
		var side string
		if err := r.Scan(&c.Game, &at, &c.Kind, &side, &c.Before.Mu, &c.Before.Sigma, &c.After.Mu, &c.After.Sigma,
			&c.Won, &c.Left); err != nil {
			return c, err
		}
		sd, ok := rating.ParseSide(side)
		if !ok {
			return c, fmt.Errorf("side %q: %w", side, store.ErrDamaged)
		}
		c.At, c.Side = time.UnixMilli(at).UTC(), sd
		return c, nil
	})
	if err != nil {
		return nil, fmt.Errorf("store/postgres: rating history of %q: %w", player, rowsNotFound(err))
	}
	return out, nil
}

// Leaderboard returns a leaderboard (see store.Ratings): of the ratings
// now, or for a season, of the players who played in it, each with the
// rating after their last game in it and their games and wins in it.
func (db *DB) Leaderboard(ctx context.Context, q store.LeaderboardQuery) ([]store.Standing, error) {
	q = q.WithDefaults()
	// The players' filter: every player (NULL), or those of the array.
	var players []string
	if q.Players != nil {
		players = append([]string{}, q.Players...)
	}
	var rows pgx.Rows
	var err error
	from, to, season := q.Season()
	if !season {
		rows, err = db.pool.Query(ctx, `SELECT player, mu, sigma, games, wins FROM ratings WHERE kind = $1
				AND ($4::text[] IS NULL OR player = ANY($4::text[]))
			ORDER BY mu - 3 * sigma DESC, games DESC, player LIMIT $2 OFFSET $3`, string(q.Kind), q.Limit, q.Offset, players)
	} else {
		rows, err = db.pool.Query(ctx, `SELECT player, mu, sigma, games, wins FROM (
				SELECT player, mu, sigma, COUNT(*) OVER p AS games, SUM(won::integer) OVER p AS wins,
					ROW_NUMBER() OVER (PARTITION BY player ORDER BY at DESC, game DESC) AS last
				FROM rating_changes WHERE kind = $1 AND at >= $2 AND at < $3
					AND ($6::text[] IS NULL OR player = ANY($6::text[]))
				WINDOW p AS (PARTITION BY player)) AS s
			WHERE last = 1 ORDER BY mu - 3 * sigma DESC, games DESC, player LIMIT $4 OFFSET $5`,
			string(q.Kind), from, to, q.Limit, q.Offset, players)
	}
	if err != nil {
		return nil, fmt.Errorf("store/postgres: leaderboard: %w", rowsNotFound(err))
	}
	var out []store.Standing
	var s store.Standing
	_, err = pgx.ForEachRow(rows, []any{&s.Player, &s.Rating.Mu, &s.Rating.Sigma, &s.Games, &s.Wins}, func() error {
		s.Rank = q.Offset + len(out) + 1
		out = append(out, s)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store/postgres: leaderboard: %w", rowsNotFound(err))
	}
	return out, nil
}
