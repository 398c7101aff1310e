package tournament

// This file is a tournament played online (docs/club.md, Online
// tournaments): its rules for the tables the server opens (rated or not,
// how long a table waits for its players, what a player who does not come
// scores), each round's tables opened once the round before is over, and
// each table's game linked when it ends, with the seats a bot played for a
// player who did not come.

import (
	"slices"

	"mafia/club"
	"mafia/engine"
)

// The rules for a player who does not come to an online table by its
// wait's end (Online.NoShow). Either way the server's bot plays the seat,
// so that the table's other players have their game.
const (
	// NoShowStandIn: the seat's result is the bot's: the game counts for
	// nobody at that seat (the player has no game, no points from it).
	NoShowStandIn = "stand_in"
	// NoShowForfeit: the player scores the forfeit penalty (Online.Forfeit)
	// for a game played, and nothing else from it.
	NoShowForfeit = "forfeit"
)

// The bounds of an online table's wait for its players, in seconds.
const (
	DefaultWait = 300
	MaxWait     = 3600
)

// Online is how a tournament is played online: the server opens each
// round's tables (rated or not) with each seat held for its player's
// account, starts a table when all its players are at it, and after Wait
// seconds gives the seats still free to its bots, the players who did not
// come scored by NoShow. Forfeit is the forfeit penalty (0 or less; 0 when
// made: the club's penalty for a removal by fouls, Scoring.Fouls).
// TimingsMS are the tables' steps' times (docs/protocol.md; none: the
// server's defaults).
type Online struct {
	Rated     bool             `json:"rated,omitempty"`
	NoShow    string           `json:"no_show"`
	Wait      int              `json:"wait_s"`
	Forfeit   club.Points      `json:"forfeit"`
	TimingsMS map[string]int64 `json:"timings_ms,omitempty"`
}

// The codes of an online tournament's refusals.
const (
	// CodeOffline refuses to open a round online in a tournament played at
	// real tables only (made without online rules).
	CodeOffline engine.Code = "tournament_offline"
	// CodeRoundOpen refuses to open a round online twice, or a round whose
	// table has a game already (N: the round).
	CodeRoundOpen engine.Code = "tournament_round_open"
	// CodeRoundWaits refuses to open a round before every table of the
	// rounds before it has its game (N: the round not over yet).
	CodeRoundWaits engine.Code = "tournament_round_waits"
	// CodeNoAccount refuses to open a round online with a player whose
	// roster entry is linked to no account (Value: the player's name).
	CodeNoAccount engine.Code = "tournament_no_account"
	// CodeNoTable answers a player who has no table to sit at now in the
	// tournament (no round of theirs is open online).
	CodeNoTable engine.Code = "tournament_no_table"
	// CodeTableStarted refuses to start a table opened online that has
	// started already (N: the round, Seat: the table).
	CodeTableStarted engine.Code = "tournament_table_started"
	// CodeTableNotOver refuses extra points for a table opened online
	// whose game is not over and linked yet (N: the round, Seat: the
	// table).
	CodeTableNotOver engine.Code = "tournament_table_not_over"
)

func init() {
	Kinds[CodeOffline] = engine.KindConflict
	Kinds[CodeRoundOpen] = engine.KindConflict
	Kinds[CodeRoundWaits] = engine.KindConflict
	Kinds[CodeNoAccount] = engine.KindInvalid
	Kinds[CodeNoTable] = engine.KindNotFound
	Kinds[CodeTableStarted] = engine.KindConflict
	Kinds[CodeTableNotOver] = engine.KindConflict
}

// withDefaults fills an online tournament's zero fields: the wait, and the
// forfeit penalty from the club's scoring.
func (o *Online) withDefaults(sc club.Scoring) {
	if o.Wait == 0 {
		o.Wait = DefaultWait
	}
	if o.Forfeit == 0 {
		o.Forfeit = sc.Fouls
	}
}

// check refuses online rules out of range (CodeBadTournament, Name
// "online").
func (o *Online) check() error {
	if (o.NoShow != NoShowStandIn && o.NoShow != NoShowForfeit) || o.Wait < 1 || o.Wait > MaxWait ||
		o.Forfeit > 0 || o.Forfeit < -club.MaxPoints {
		return &engine.Error{Code: CodeBadTournament, Name: "online", Value: o.NoShow}
	}
	return nil
}

// over reports whether every table of round r (from 1) has its game.
func (t *Tournament) over(r int) bool {
	for _, tb := range t.Rounds[r-1].Tables {
		if tb.Game == "" {
			return false
		}
	}
	return true
}

// CanOpen refuses to open round r (from 1) online: a tournament with no
// online rules, a round that is not seated, is open already or has a game,
// or one whose rounds before are not over.
func (t *Tournament) CanOpen(r int) error {
	if t.Online == nil {
		return &engine.Error{Code: CodeOffline}
	}
	if t.State != StateRounds && t.State != StateFinal {
		return &engine.Error{Code: CodeTournamentState, Name: t.State}
	}
	if r < 1 || r > len(t.Rounds) {
		return bad("table")
	}
	if t.State == StateFinal && !t.Rounds[r-1].Final {
		return &engine.Error{Code: CodeTournamentState, Name: t.State}
	}
	for _, tb := range t.Rounds[r-1].Tables {
		if tb.Online != "" || tb.Game != "" {
			return &engine.Error{Code: CodeRoundOpen, N: r}
		}
	}
	for p := 1; p < r; p++ {
		if !t.over(p) {
			return &engine.Error{Code: CodeRoundWaits, N: p}
		}
	}
	return nil
}

// Open records round r's tables opened online: tables[n-1] is the server's
// table of table n.
func (t *Tournament) Open(r int, tables []string) error {
	if err := t.CanOpen(r); err != nil {
		return err
	}
	if len(tables) != len(t.Rounds[r-1].Tables) {
		return bad("table")
	}
	for n, id := range tables {
		t.Rounds[r-1].Tables[n].Online = id
	}
	return nil
}

// LinkOnline links the ended game of round r's table n (both from 1),
// opened online, to it: absent are the seats the server's bot played for
// a player who did not come.
func (t *Tournament) LinkOnline(r, n int, absent []int) error {
	if r < 1 || r > len(t.Rounds) || n < 1 || n > len(t.Rounds[r-1].Tables) {
		return bad("table")
	}
	tb := &t.Rounds[r-1].Tables[n-1]
	if tb.Online == "" {
		return bad("table")
	}
	if tb.Game != "" {
		return &engine.Error{Code: CodePlayedTwice, N: r, Seat: engine.Seat(n)}
	}
	for _, s := range absent {
		if s < 1 || s > len(tb.Players) {
			return bad("seats")
		}
	}
	tb.Game, tb.Absent = tb.Online, slices.Clone(absent)
	slices.Sort(tb.Absent)
	return nil
}

// Seat finds a player's table in the latest round opened online: the
// round and table (from 1) and the seat; ok false when no round is open
// online or the player sits this one out.
func (t *Tournament) Seat(person string) (round, table, seat int, ok bool) {
	for r := len(t.Rounds); r >= 1; r-- {
		if !slices.ContainsFunc(t.Rounds[r-1].Tables, func(tb Table) bool { return tb.Online != "" }) {
			continue
		}
		for n, tb := range t.Rounds[r-1].Tables {
			if i := slices.Index(tb.Players, person); i >= 0 {
				return r, n + 1, i + 1, true
			}
		}
		return 0, 0, 0, false
	}
	return 0, 0, 0, false
}

// SetExtra gives the seats of round r's table n (from 1) the organiser's
// or the referee's extra points, in place of those given before (none:
// none): only once its game g (the table's game as the club reads it) is
// over and linked (CodeTableNotOver), each seat of the table at most once
// and within the tournament's scoring (club.CodeBadExtra, naming the
// seat). At a real table they then replace the host's (Table.Given). A
// closed tournament's standings are final: refused (CodeTournamentState).
func (t *Tournament) SetExtra(r, n int, g *club.Game, extra []club.Extra) error {
	if t.State == StateClosed {
		return &engine.Error{Code: CodeTournamentState, Name: t.State}
	}
	if r < 1 || r > len(t.Rounds) || n < 1 || n > len(t.Rounds[r-1].Tables) {
		return bad("table")
	}
	tb := &t.Rounds[r-1].Tables[n-1]
	if tb.Game == "" || g == nil || g.Winner == "" {
		return &engine.Error{Code: CodeTableNotOver, N: r, Seat: engine.Seat(n)}
	}
	if err := t.Scoring.CheckExtra(g, extra); err != nil {
		return err
	}
	tb.Extra = nil
	for _, x := range extra {
		if x.Points != 0 {
			tb.Extra = append(tb.Extra, x)
		}
	}
	slices.SortFunc(tb.Extra, func(a, b club.Extra) int { return a.Seat - b.Seat })
	tb.Given = tb.Online == ""
	return nil
}
