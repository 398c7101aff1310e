package account

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"mafia/internal/secret"
	"mafia/internal/sqlitetest"
	"mafia/store"
)

// TestLogout_EndsThisLoginOnly: a log out ends the login it was made with;
// the account's other logins go on, and it may log in again.
func TestLogout_EndsThisLoginOnly(t *testing.T) {
	s, _ := newTestService(t, Config{})
	p1, t1, err := s.Signup(bg, "nino", "password1", "")
	if err != nil {
		t.Fatal(err)
	}
	_, t2, err := s.Login(bg, "nino", "password1", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Logout(bg, p1); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Authenticate(bg, t1); codeOf(err) != CodeNotLoggedIn {
		t.Errorf("the login that logged out: %v, want %s", err, CodeNotLoggedIn)
	}
	if p, err := s.Authenticate(bg, t2); err != nil || p.Account.ID != p1.Account.ID {
		t.Errorf("the other login after a log out: %+v %v, want it to go on", p, err)
	}
	if err := s.Logout(bg, p1); err != nil {
		t.Errorf("a second log out of the same login: %v", err)
	}
	if _, t3, err := s.Login(bg, "nino", "password1", ""); err != nil {
		t.Fatal(err)
	} else if _, err := s.Authenticate(bg, t3); err != nil {
		t.Errorf("a new login after the log out: %v", err)
	}
}

// TestKeep_TakesAFinishedGamesGuestSeatOnly: the account keeps a finished
// online game's guest seat whose token it shows (the game is then on its
// page); a game not over, a wrong or missing token, a bot's seat, a seat
// kept already (by this account or another) are each CodeCannotKeep, and
// change nothing.
func TestKeep_TakesAFinishedGamesGuestSeatOnly(t *testing.T) {
	db, err := sqlitetest.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	clock := &fakeClock{now: time.Unix(1700000000, 0).UTC()}
	s := New(Config{Store: db, Params: testParams, Now: clock.Now})
	at := clock.Now()
	table := func(id string, status store.Status, tokens ...string) {
		t.Helper()
		seats := []store.Seat{{Seat: 1, Name: "Bot 1", Bot: true}}
		for i, tok := range tokens {
			seats = append(seats, store.Seat{Seat: i + 2, Name: fmt.Sprint("guest ", i+2), TokenHash: secret.Hash(tok)})
		}
		tb := store.Table{ID: id, Kind: store.KindOnline, Name: id, Public: true, Status: status, Winner: "town", CreatedAt: at, UpdatedAt: at}
		if status != store.StatusEnded {
			tb.Winner = ""
		}
		if err := db.CreateTable(bg, tb, seats); err != nil {
			t.Fatal(err)
		}
	}
	table("over", store.StatusEnded, "tok-2", "tok-3")
	table("on", store.StatusPlaying, "tok-on")
	nino, _, err := s.Signup(bg, "nino", "password1", "")
	if err != nil {
		t.Fatal(err)
	}
	gio, _, err := s.Signup(bg, "gio", "password1", "")
	if err != nil {
		t.Fatal(err)
	}
	games := func(p Principal) []store.AccountGame {
		t.Helper()
		gs, err := db.AccountGames(bg, p.Account.ID, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		return gs
	}
	for _, c := range []struct {
		what         string
		table, token string
	}{
		{"a game not over", "on", "tok-on"},
		{"a token of no seat", "over", "tok-9"},
		{"another table's token", "on", "tok-2"},
		{"no token", "over", ""},
		{"no table", "", "tok-2"},
		{"a table that does not exist", "nowhere", "tok-2"},
	} {
		if err := s.Keep(bg, nino, c.table, c.token); codeOf(err) != CodeCannotKeep {
			t.Errorf("keep %s: %v, want %s", c.what, err, CodeCannotKeep)
		}
	}
	if gs := games(nino); len(gs) != 0 {
		t.Fatalf("refused keeps gave the account games: %+v", gs)
	}
	if err := s.Keep(bg, nino, "over", "tok-2"); err != nil {
		t.Fatalf("keep a finished game's guest seat: %v", err)
	}
	if gs := games(nino); len(gs) != 1 || gs[0].Table != "over" || gs[0].Seat != 2 || gs[0].Winner != "town" {
		t.Errorf("the account's games after the keep: %+v, want seat 2 of over", gs)
	}
	for who, p := range map[string]Principal{"the same account": nino, "another account": gio} {
		if err := s.Keep(bg, p, "over", "tok-2"); codeOf(err) != CodeCannotKeep {
			t.Errorf("%s keeps a seat kept already: %v, want %s", who, err, CodeCannotKeep)
		}
	}
	if err := s.Keep(bg, gio, "over", "tok-3"); err != nil {
		t.Errorf("another account keeps the other guest seat: %v", err)
	}
	if gs := games(gio); len(gs) != 1 || gs[0].Seat != 3 {
		t.Errorf("the other account's games: %+v, want seat 3 of over", gs)
	}
}

// TestProfile_CountsEveryGameAndListsWhatTheViewerMaySee: every game counts
// in the tallies (games, wins, by side and by card: a win is the card's
// side winning), and the list, newest as given, at most RecentGames, holds
// the public tables' games, a private table's only to the player or to a
// viewer who sat there too.
func TestProfile_CountsEveryGameAndListsWhatTheViewerMaySee(t *testing.T) {
	a := store.Account{ID: 7, Name: "Nino", Created: time.Unix(1700000000, 0)}
	end := time.Unix(1700001000, 0)
	games := []store.AccountGame{
		{Table: "t1", Name: "one", Public: true, Winner: "town", Seat: 1, Players: 7, Role: "citizen", Ended: end},
		{Table: "t2", Name: "two", Public: false, Winner: "mafia", Seat: 2, Players: 7, Role: "don", Ended: end},
		{Table: "t3", Name: "three", Public: false, Winner: "town", Seat: 3, Players: 7, Role: "mafia", Ended: end, ViewerSat: true},
		{Table: "t4", Name: "four", Public: true, Winner: "maniac", Seat: 4, Players: 11, Role: "maniac", Ended: end},
		{Table: "t5", Name: "five", Public: true, Winner: "draw", Seat: 5, Players: 7, Role: "detective", Ended: end},
		{Table: "t6", Name: "six", Public: true, Winner: "town", Seat: 6, Players: 7, Role: "", Ended: end},
	}
	p := Profile(a, "", games, 0)
	if p.Name != "Nino" || p.Bot || p.Created != a.Created.UnixMilli() {
		t.Errorf("who: %+v", p)
	}
	if p.Games != 6 || p.Wins != 3 {
		t.Errorf("%d games, %d wins; want 6 and 3 (t1, t2, t4)", p.Games, p.Wins)
	}
	wantSide := map[string]Tally{"town": {Games: 2, Wins: 1}, "mafia": {Games: 2, Wins: 1}, "maniac": {Games: 1, Wins: 1}}
	if fmt.Sprint(p.BySide) != fmt.Sprint(wantSide) {
		t.Errorf("by side %v, want %v", p.BySide, wantSide)
	}
	wantRole := map[string]Tally{"citizen": {1, 1}, "don": {1, 1}, "mafia": {1, 0}, "maniac": {1, 1}, "detective": {1, 0}}
	if fmt.Sprint(p.ByRole) != fmt.Sprint(wantRole) {
		t.Errorf("by card %v, want %v", p.ByRole, wantRole)
	}
	listed := func(p ProfileJSON) []string {
		var out []string
		for _, g := range p.Recent {
			out = append(out, g.Table)
		}
		return out
	}
	for _, c := range []struct {
		who    string
		viewer int64
		want   []string
	}{
		{"nobody logged in", 0, []string{"t1", "t3", "t4", "t5", "t6"}}, // t3: ViewerSat is the store's answer for this viewer
		{"another player", 9, []string{"t1", "t3", "t4", "t5", "t6"}},
		{"the player", 7, []string{"t1", "t2", "t3", "t4", "t5", "t6"}},
	} {
		if got := listed(Profile(a, "", games, c.viewer)); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s sees %v, want %v", c.who, got, c.want)
		}
	}
	g := Profile(a, "", games, 7).Recent[1]
	if g.Side != "mafia" || !g.Won || g.Role != "don" || g.Winner != "mafia" || g.Seat != 2 || g.Players != 7 || g.Ended != end.UnixMilli() {
		t.Errorf("a private game its player sees: %+v", g)
	}
	if g := Profile(a, "", games, 7).Recent[5]; g.Side != "" || g.Won || g.Role != "" {
		t.Errorf("a game with no card read: %+v, want no side, no win", g)
	}
	many := make([]store.AccountGame, RecentGames+5)
	for i := range many {
		many[i] = store.AccountGame{Table: fmt.Sprint("m", i), Public: true, Winner: "town", Role: "citizen", Ended: end}
	}
	if p := Profile(a, "", many, 0); len(p.Recent) != RecentGames || p.Games != RecentGames+5 || p.Recent[0].Table != "m0" {
		t.Errorf("%d games: %d listed (first %s), %d counted; want %d listed from the first, all counted",
			len(many), len(p.Recent), p.Recent[0].Table, p.Games, RecentGames)
	}
	bot := store.Account{ID: 8, Name: "robo", Owner: 7}
	if p := Profile(bot, "Nino", nil, 0); !p.Bot || p.Owner != "Nino" || p.Recent == nil || p.Games != 0 {
		t.Errorf("a bot's page: %+v", p)
	}
}

// TestAddClubs_CountsTheInPersonGamesInEveryTally: the clubs are listed as
// given, and each in-person game counts in the page's games, wins, by side
// and by card, and in InPerson; a game removed by fouls (Won false) is no
// win.
func TestAddClubs_CountsTheInPersonGamesInEveryTally(t *testing.T) {
	a := store.Account{ID: 7, Name: "Nino"}
	p := Profile(a, "", []store.AccountGame{{Table: "t1", Public: true, Winner: "town", Role: "citizen"}}, 0)
	clubs := []ClubJSON{{ID: "c1", Name: "Tbilisi", Role: "host"}, {ID: "c2", Name: "Batumi"}}
	p.AddClubs(PlayerClubs{Clubs: clubs, Games: []InPersonGame{
		{Role: "citizen", Won: true}, {Role: "don", Won: false}, {Role: "maniac", Won: true}, {Role: "doctor", Won: false},
	}})
	if fmt.Sprint(p.Clubs) != fmt.Sprint(clubs) {
		t.Errorf("clubs %+v, want %+v", p.Clubs, clubs)
	}
	clubs[0].Name = "changed"
	if p.Clubs[0].Name != "Tbilisi" {
		t.Error("the page shares the caller's slice of clubs")
	}
	if p.InPerson != (Tally{Games: 4, Wins: 2}) {
		t.Errorf("in person %+v, want 4 games, 2 wins", p.InPerson)
	}
	if p.Games != 5 || p.Wins != 3 {
		t.Errorf("%d games, %d wins; want 5 and 3 (one online, four in person)", p.Games, p.Wins)
	}
	wantSide := map[string]Tally{"town": {Games: 3, Wins: 2}, "mafia": {Games: 1}, "maniac": {Games: 1, Wins: 1}}
	if fmt.Sprint(p.BySide) != fmt.Sprint(wantSide) {
		t.Errorf("by side %v, want %v", p.BySide, wantSide)
	}
	wantRole := map[string]Tally{"citizen": {2, 2}, "don": {1, 0}, "maniac": {1, 1}, "doctor": {1, 0}}
	if fmt.Sprint(p.ByRole) != fmt.Sprint(wantRole) {
		t.Errorf("by card %v, want %v", p.ByRole, wantRole)
	}
	none := Profile(a, "", nil, 0)
	none.AddClubs(PlayerClubs{})
	if none.Clubs == nil || len(none.Clubs) != 0 || none.Games != 0 || none.InPerson != (Tally{}) {
		t.Errorf("no clubs: %+v", none)
	}
}
