package tournament

import (
	"slices"
	"strings"
	"unicode/utf8"

	"mafia/club"
	"mafia/engine"
	"mafia/seating"
)

// The bounds and defaults of a tournament.
const (
	// MaxName is the longest tournament, host or referee name, in characters.
	MaxName = club.MaxName
	// DefaultFinal is the final's size (players, at one table) when none is given.
	DefaultFinal = 10
	// DefaultFactor is the final's points factor (×1.5) when none is given.
	DefaultFactor club.Points = 150
	// MaxFactor is the largest factor of the final's points (×10).
	MaxFactor club.Points = 1000
	// MaxFinalGames is the most games of a final.
	MaxFinalGames = 20
)

// The states of a tournament, in their order.
const (
	StateOpen   = "open"   // made; its rounds are not seated yet
	StateRounds = "rounds" // its qualifying rounds are seated and being played
	StateFinal  = "final"  // its final is seated and being played
	StateClosed = "closed" // over: nothing changes any more
)

// Tournament is a club's tournament as the store keeps it.
type Tournament struct {
	ID     string `json:"id"`
	ClubID string `json:"club"`
	Name   string `json:"name"`
	From   string `json:"from"` // the first day, YYYY-MM-DD
	To     string `json:"to"`   // the last day, YYYY-MM-DD
	// Host and Referee run the tournament's games: the host at the table,
	// the referee besides (names as the club writes them).
	Host    string `json:"host,omitempty"`
	Referee string `json:"referee,omitempty"`
	// RefereeAccount is the site's account of the referee (0: none named):
	// it may give the extra points of the tournament's tables as a host of
	// the club may, and nothing else of the club's (referee.go); Referee
	// stays the name shown, RefereeLogin the account's name as it showed
	// when named.
	RefereeAccount int64  `json:"referee_account,omitempty"`
	RefereeLogin   string `json:"referee_login,omitempty"`
	// Players are roster ids: player p of the seating is Players[p-1].
	Players []string     `json:"players"`
	Scoring club.Scoring `json:"scoring"`
	Tables  int          `json:"tables"` // tables of each qualifying round
	Seats   int          `json:"seats"`  // seats at a table
	Games   int          `json:"games"`  // qualifying games of each player
	Seed    uint64       `json:"seed"`
	// Avoid are pairs of roster ids never to share a table.
	Avoid [][2]string `json:"avoid,omitempty"`
	Final Final       `json:"final"`
	// TieBreaks is the order equal points are broken in, after points.
	TieBreaks []TieBreak `json:"tie_breaks"`
	State     string     `json:"state"`
	// Rounds are the qualifying rounds, then the final's, once seated.
	Rounds []Round `json:"rounds"`
	// Online, if set, is how the tournament's rounds are played online
	// (online.go); nil: at real tables only.
	Online *Online `json:"online,omitempty"`
}

// Final is the final: the top Size players (0: none) play Games games at
// one table, each game's points multiplied by Factor.
type Final struct {
	Size   int         `json:"size"`
	Games  int         `json:"games"`
	Factor club.Points `json:"factor"`
}

// Round is one round: its tables, each seated; Final marks the final's.
type Round struct {
	Final  bool    `json:"final,omitempty"`
	Tables []Table `json:"tables"`
}

// Table is one table of a round: its players in seat order (roster ids)
// and the club's game played there ("": not yet).
type Table struct {
	Players []string `json:"players"`
	Game    string   `json:"game,omitempty"`
	// Online is the server's table the round's table was opened as
	// online ("": none), and Absent the seats (from 1) whose player did
	// not come: the server's bot played them (Online.NoShow says how
	// they score).
	Online string `json:"online,omitempty"`
	Absent []int  `json:"absent,omitempty"`
	// Extra are the organiser's or the referee's extra points for the
	// seats of a table, once its game is over (SetExtra), at most one
	// entry a seat. At a table played online they are the table's only
	// extras. At a real table the host gives extras on the assistant; once
	// the organiser's screen has saved the table's (Given), these replace
	// the host's for the whole table, none saved included.
	Extra []club.Extra `json:"extra,omitempty"`
	Given bool         `json:"extra_given,omitempty"`
}

// Extras are the extra points that count for table tb's game g: the
// screen's once given (or the table is online), else the game's own (its
// host's, on the assistant).
func (tb Table) Extras(g club.Game) []club.Extra {
	if tb.Given || tb.Online != "" {
		return tb.Extra
	}
	return g.Extra
}

// Config is what the organiser gives to make a tournament; zero fields take
// their defaults (seats 10, final 10 players for 1 game at ×1.5, tie-breaks
// DefaultTieBreaks).
type Config struct {
	ID, ClubID, Name, From, To, Host, Referee string
	Players                                   []string
	Scoring                                   club.Scoring
	Tables, Seats, Games                      int
	Seed                                      uint64
	Avoid                                     [][2]string
	Final                                     *Final // nil: the default; Size 0: no final
	TieBreaks                                 []TieBreak
	Online                                    *Online // nil: at real tables only
}

// New checks cfg against the club's roster and returns the tournament, open.
func New(cfg Config, roster *club.Roster) (Tournament, error) {
	t := Tournament{ID: cfg.ID, ClubID: cfg.ClubID, Name: strings.TrimSpace(cfg.Name), From: cfg.From, To: cfg.To,
		Host: strings.TrimSpace(cfg.Host), Referee: strings.TrimSpace(cfg.Referee), Players: slices.Clone(cfg.Players),
		Scoring: cfg.Scoring, Tables: cfg.Tables, Seats: cfg.Seats, Games: cfg.Games, Seed: cfg.Seed,
		Avoid: slices.Clone(cfg.Avoid), TieBreaks: slices.Clone(cfg.TieBreaks), State: StateOpen, Rounds: []Round{}}
	if t.Seats == 0 {
		t.Seats = seating.DefaultSeats
	}
	if cfg.Final == nil {
		t.Final = Final{Size: min(DefaultFinal, t.Seats), Games: 1, Factor: DefaultFactor}
	} else {
		t.Final = *cfg.Final
		if t.Final.Size > 0 && t.Final.Factor == 0 {
			t.Final.Factor = DefaultFactor
		}
		if t.Final.Size > 0 && t.Final.Games == 0 {
			t.Final.Games = 1
		}
	}
	if t.TieBreaks == nil {
		t.TieBreaks = slices.Clone(DefaultTieBreaks)
	}
	if cfg.Online != nil {
		o := *cfg.Online
		o.withDefaults(t.Scoring)
		t.Online = &o
	}
	if err := t.Check(roster); err != nil {
		return Tournament{}, err
	}
	return t, nil
}

func bad(name string) error { return &engine.Error{Code: CodeBadTournament, Name: name} }

// Check refuses a tournament that cannot be kept (CodeBadTournament, Name
// the field) or a player not on the roster (CodeNotPlayer).
func (t *Tournament) Check(roster *club.Roster) error {
	switch {
	case t.Name == "" || utf8.RuneCountInString(t.Name) > MaxName:
		return bad("name")
	case !isDay(t.From) || !isDay(t.To) || t.To < t.From:
		return bad("dates")
	case utf8.RuneCountInString(t.Host) > MaxName || utf8.RuneCountInString(t.Referee) > MaxName:
		return bad("host")
	case t.RefereeAccount < 0:
		return bad("referee")
	}
	if err := t.Scoring.Check(); err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, p := range t.Players {
		if roster.Resolve(p) != p {
			return &engine.Error{Code: CodeNotPlayer, Value: p}
		}
		if seen[p] {
			return bad("players")
		}
		seen[p] = true
	}
	c, err := t.seatingConfig()
	if err != nil {
		return err
	}
	if err := c.Check(); err != nil {
		return err
	}
	f := t.Final
	if f.Size != 0 && (f.Size < seating.MinSeats || f.Size > min(len(t.Players), seating.MaxSeats) ||
		f.Games < 1 || f.Games > MaxFinalGames || f.Factor < 100 || f.Factor > MaxFactor) {
		return bad("final")
	}
	tb := map[TieBreak]bool{}
	for _, b := range t.TieBreaks {
		if !slices.Contains(TieBreaks, b) || tb[b] {
			return &engine.Error{Code: CodeBadTournament, Name: "tie_breaks", Value: string(b)}
		}
		tb[b] = true
	}
	if t.Online != nil {
		return t.Online.check()
	}
	return nil
}

// seatingConfig is the seating generator's question: players 1..N, the
// pairs to keep apart by their players' numbers.
func (t *Tournament) seatingConfig() (seating.Config, error) {
	num := make(map[string]int, len(t.Players))
	for i, p := range t.Players {
		num[p] = i + 1
	}
	c := seating.Config{Players: len(t.Players), Tables: t.Tables, Seats: t.Seats, Games: t.Games, Seed: t.Seed}
	for _, a := range t.Avoid {
		x, y := num[a[0]], num[a[1]]
		if x == 0 || y == 0 || x == y {
			return c, &engine.Error{Code: seating.CodeBadAvoid, Value: a[0] + "-" + a[1]}
		}
		c.Avoid = append(c.Avoid, [2]int{x, y})
	}
	return c, nil
}

func isDay(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for i, c := range s {
		if i != 4 && i != 7 && (c < '0' || c > '9') {
			return false
		}
	}
	m, d := (s[5]-'0')*10+s[6]-'0', (s[8]-'0')*10+s[9]-'0'
	return m >= 1 && m <= 12 && d >= 1 && d <= 31
}

// Qualifying returns how many qualifying rounds the tournament has.
func (t *Tournament) Qualifying() int {
	n := 0
	for _, r := range t.Rounds {
		if !r.Final {
			n++
		}
	}
	return n
}

// SeatRounds seats the qualifying rounds by the seating generator from the
// tournament's seed: only once, while it is open.
func (t *Tournament) SeatRounds() error {
	if t.State != StateOpen {
		return &engine.Error{Code: CodeTournamentState, Name: t.State}
	}
	c, err := t.seatingConfig()
	if err != nil {
		return err
	}
	s, err := seating.Generate(c)
	if err != nil {
		return err
	}
	for _, r := range s.Rounds {
		round := Round{Tables: make([]Table, len(r))}
		for i, tb := range r {
			ps := make([]string, len(tb))
			for j, p := range tb {
				ps[j] = t.Players[p-1]
			}
			round.Tables[i] = Table{Players: ps}
		}
		t.Rounds = append(t.Rounds, round)
	}
	t.State = StateRounds
	return nil
}

// Link links the club's game to round r's table n (both from 1): once per
// table and once per game. The game's seats must hold the table's players
// (a guest seat counts as the table's player in that seat).
func (t *Tournament) Link(r, n int, g *club.Game, roster *club.Roster) error {
	if t.State != StateRounds && t.State != StateFinal {
		return &engine.Error{Code: CodeTournamentState, Name: t.State}
	}
	if r < 1 || r > len(t.Rounds) || n < 1 || n > len(t.Rounds[r-1].Tables) {
		return bad("table")
	}
	tb := &t.Rounds[r-1].Tables[n-1]
	if tb.Game != "" || tb.Online != "" {
		// A table opened online is linked by its game's end (LinkOnline).
		return &engine.Error{Code: CodePlayedTwice, N: r, Seat: engine.Seat(n)}
	}
	for ri, round := range t.Rounds {
		for ti, x := range round.Tables {
			if x.Game == g.ID {
				return &engine.Error{Code: CodePlayedTwice, N: ri + 1, Seat: engine.Seat(ti + 1)}
			}
		}
	}
	if len(g.Seats) != len(tb.Players) {
		return bad("seats")
	}
	for i, s := range g.Seats {
		if s.Person == "" {
			continue
		}
		if p := roster.Resolve(s.Person); p != tb.Players[i] {
			return &engine.Error{Code: CodeNotPlayer, Seat: engine.Seat(i + 1), Value: s.Person}
		}
	}
	tb.Game = g.ID
	return nil
}

// Unlink takes the game off round r's table n (both from 1), so that
// another may be linked: a game abandoned at the table, or linked wrongly.
// Only while the rounds or the final are played, and not a qualifying
// table once the final is seated.
func (t *Tournament) Unlink(r, n int) error {
	if t.State != StateRounds && t.State != StateFinal {
		return &engine.Error{Code: CodeTournamentState, Name: t.State}
	}
	if r < 1 || r > len(t.Rounds) || n < 1 || n > len(t.Rounds[r-1].Tables) {
		return bad("table")
	}
	if t.State == StateFinal && !t.Rounds[r-1].Final {
		return &engine.Error{Code: CodeTournamentState, Name: t.State}
	}
	tb := &t.Rounds[r-1].Tables[n-1]
	tb.Game, tb.Extra, tb.Given = "", nil, false // the extras were the unlinked game's
	return nil
}

// played reports whether every qualifying table has a finished game among
// games.
func (t *Tournament) played(games map[string]club.Game) bool {
	for _, r := range t.Rounds {
		if r.Final {
			continue
		}
		for _, tb := range r.Tables {
			if g, ok := games[tb.Game]; tb.Game == "" || !ok || g.Winner == "" {
				return false
			}
		}
	}
	return true
}

// SeatFinal seats the final once every qualifying table's game is
// finished: the
// top Final.Size of the qualifying standings (or, when given, the players
// the organiser names: needed when the last finalist's place is shared),
// seated by the generator from the tournament's seed.
func (t *Tournament) SeatFinal(roster *club.Roster, games map[string]club.Game, chosen []string) error {
	if t.State != StateRounds || !t.played(games) || t.Final.Size == 0 {
		return &engine.Error{Code: CodeTournamentState, Name: t.State}
	}
	size := t.Final.Size
	finalists := chosen
	if finalists == nil {
		st := t.standings(roster, games, false)
		if len(st) > size && st[size].Place == st[size-1].Place {
			return &engine.Error{Code: CodeFinalTie, N: size}
		}
		for _, s := range st[:min(size, len(st))] {
			finalists = append(finalists, s.Person)
		}
	}
	if len(finalists) != size {
		return bad("finalists")
	}
	seen := map[string]bool{}
	for _, p := range finalists {
		if !slices.Contains(t.Players, p) || seen[p] {
			return &engine.Error{Code: CodeNotPlayer, Value: p}
		}
		seen[p] = true
	}
	s, err := seating.Generate(seating.Config{Players: size, Tables: 1, Seats: size, Games: t.Final.Games, Seed: t.Seed})
	if err != nil {
		return err
	}
	for _, r := range s.Rounds {
		ps := make([]string, len(r[0]))
		for j, p := range r[0] {
			ps[j] = finalists[p-1]
		}
		t.Rounds = append(t.Rounds, Round{Final: true, Tables: []Table{{Players: ps}}})
	}
	t.State = StateFinal
	return nil
}

// Close ends the tournament: nothing changes after.
func (t *Tournament) Close() error {
	if t.State == StateClosed || t.State == StateOpen {
		return &engine.Error{Code: CodeTournamentState, Name: t.State}
	}
	t.State = StateClosed
	return nil
}
