package store

import (
	"context"
	"errors"
	"time"

	"mafia/rating"
)

// ErrAlreadyRated is returned for a game whose ratings were already
// changed: a game is rated once.
var ErrAlreadyRated = errors.New("store: already rated")

// RatedGame is a finished game to rate: its id (a table's id online, an
// in-person game's id from the assistant), when it ended, its seats turned
// to the players' ids, and its result.
type RatedGame struct {
	Game   string
	At     time.Time
	Seats  []rating.Seat
	Result rating.Result
}

// PlayerRating is one of a player's ratings now.
type PlayerRating struct {
	Player string
	Kind   rating.Kind
	Rating rating.Rating
	Games  int       // the games that changed it
	Wins   int       // those won
	At     time.Time // the last of them
}

// RatingChange is one rating's change by one game (the history).
type RatingChange struct {
	Game   string
	At     time.Time
	Player string
	Kind   rating.Kind
	Side   rating.Side
	Before rating.Rating
	After  rating.Rating
	Won    bool
	Left   bool // the player left early and was rated as losing
}

// LeaderboardQuery asks for a leaderboard: of one kind of rating; for a
// season when From or To is set (the games played at From or after, and
// before To; a zero bound is open), else of the ratings now; Limit rows
// (0: DefaultLeaderboard) from Offset; of the players in Players only, ranked among
// themselves, when it is not nil (a club's board; empty: nobody).
type LeaderboardQuery struct {
	Kind     rating.Kind
	From, To time.Time
	Limit    int
	Offset   int
	Players  []string
}

// DefaultLeaderboard is a leaderboard's rows when a query's Limit is 0.
const DefaultLeaderboard = 100

// WithDefaults is q as a store runs it: Limit DefaultLeaderboard when not
// positive, Offset 0 when negative.
func (q LeaderboardQuery) WithDefaults() LeaderboardQuery {
	if q.Limit <= 0 {
		q.Limit = DefaultLeaderboard
	}
	if q.Offset < 0 {
		q.Offset = 0
	}
	return q
}

// Season reports whether q asks for a season, and its bounds in Unix
// milliseconds, an open bound the furthest a store compares (±2^62).
func (q LeaderboardQuery) Season() (from, to int64, ok bool) {
	if q.From.IsZero() && q.To.IsZero() {
		return 0, 0, false
	}
	from, to = int64(-1<<62), int64(1<<62)
	if !q.From.IsZero() {
		from = q.From.UnixMilli()
	}
	if !q.To.IsZero() {
		to = q.To.UnixMilli()
	}
	return from, to, true
}

// Standing is one row of a leaderboard.
type Standing struct {
	Rank   int // from 1, in the whole board (Offset counted)
	Player string
	Rating rating.Rating
	Games  int
	Wins   int
}

// Ratings is a Store that keeps the players' ratings: per player id (a
// string: an account's id) and kind (overall, town, mafia), with the
// history of the changes of every rated game.
type Ratings interface {
	// RateGame rates a finished game: it reads its players' ratings,
	// computes rating.Game with rating.ForMafia(), and writes the new
	// ratings and the history in one transaction, returning the updates. A
	// game rated before is ErrAlreadyRated (nothing changes); seats the
	// method refuses are rating.ErrBadInput.
	RateGame(ctx context.Context, g RatedGame) ([]rating.Update, error)
	// PlayerRatings returns a player's ratings, in the order of
	// rating.Kinds; none for a player never rated.
	PlayerRatings(ctx context.Context, player string) ([]PlayerRating, error)
	// RatingHistory returns a player's changes, the latest first: the last
	// limit only when limit > 0.
	RatingHistory(ctx context.Context, player string, limit int) ([]RatingChange, error)
	// Leaderboard returns a leaderboard, by the ordinal (mu - 3 sigma),
	// highest first; ties by more games, then by the player's id.
	Leaderboard(ctx context.Context, q LeaderboardQuery) ([]Standing, error)
}
