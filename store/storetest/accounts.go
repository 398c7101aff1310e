package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"mafia/account"
	"mafia/engine"
	"mafia/store"
)

// AccountsStore is a Store that keeps accounts.
type AccountsStore interface {
	store.Store
	store.Accounts
}

// t0 is the suite's clock: whole seconds, which every store keeps exactly.
var t0 = time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)

// openAs opens a store and asserts it is also an S, failing the test if
// the implementation lacks the interface.
func openAs[S any](t *testing.T, open Open) S {
	t.Helper()
	s := open(t)
	a, ok := s.(S)
	if !ok {
		var zero S
		t.Fatalf("%T does not implement %T", s, &zero)
	}
	return a
}

// newAccount creates a person's account named name (its key made as
// package account makes it) and returns its id.
func newAccount(t *testing.T, s store.Accounts, name string) int64 {
	t.Helper()
	id, err := s.CreateAccount(context.Background(), store.Account{Name: name, Key: account.Key(name), PasswordHash: "h-" + name, Created: t0})
	if err != nil || id == 0 {
		t.Fatalf("create account %q: %d, %v", name, id, err)
	}
	return id
}

// startEvents deals a game of players seats by seed and returns its first
// events (game_started first, whose roles list every seat's card) and the
// cards dealt.
func startEvents(t *testing.T, players int, seed uint64) ([]engine.Event, []engine.Role) {
	t.Helper()
	setup, err := engine.Preset(players)
	if err != nil {
		t.Fatal(err)
	}
	roles := setup.Deal(seed, nil)
	_, evs, err := engine.New(engine.DefaultRules(), roles, seed)
	if err != nil {
		t.Fatal(err)
	}
	return evs, roles
}

// endedGame records an online table whose game of seven seats started
// (its log's first events) and ended at the given time, its seats as
// given (seat n named "P<n>" otherwise, a guest with token "tok<n>").
func endedGame(t *testing.T, s store.Store, id string, ended time.Time, seats map[int]store.Seat) []engine.Role {
	t.Helper()
	ctx := context.Background()
	all := make([]store.Seat, 7)
	for i := range all {
		all[i] = store.Seat{Seat: i + 1, Name: fmt.Sprintf("P%d", i+1), TokenHash: fmt.Sprintf("tok%d", i+1)}
		if st, ok := seats[i+1]; ok {
			all[i] = st
		}
	}
	tb := store.Table{ID: id, Kind: store.KindOnline, Name: "table " + id, Public: true, Status: store.StatusPlaying,
		CreatedAt: ended.Add(-time.Hour), UpdatedAt: ended.Add(-time.Hour)}
	if err := s.CreateTable(ctx, tb, all); err != nil {
		t.Fatal(err)
	}
	evs, roles := startEvents(t, 7, uint64(len(id))+7)
	if err := s.AppendEvents(ctx, id, 0, evs); err != nil {
		t.Fatal(err)
	}
	tb.Status, tb.Winner, tb.UpdatedAt = store.StatusEnded, "town", ended
	if err := s.UpdateTable(ctx, tb); err != nil {
		t.Fatal(err)
	}
	return roles
}

// RunAccounts pins store.Accounts: accounts unique by key as package
// account makes it, bots and their tokens, logins and their ending, the
// accounts of seats, an account's games, and keeping a guest seat.
func RunAccounts(t *testing.T, open Open) {
	ctx := context.Background()

	t.Run("a name is one account whatever its case, in any script", func(t *testing.T) {
		s := openAs[AccountsStore](t, open)
		ids := map[int64]string{}
		for _, name := range []string{"Nino", "Нино", "ნინო", "Straße"} {
			ids[newAccount(t, s, name)] = name
		}
		if len(ids) != 4 {
			t.Fatalf("four accounts got %d ids: %v", len(ids), ids)
		}
		for _, name := range []string{"NINO", "nino", "НИНО", "STRASSE"} {
			_, err := s.CreateAccount(ctx, store.Account{Name: name, Key: account.Key(name), PasswordHash: "h", Created: t0})
			if !errors.Is(err, store.ErrConflict) {
				t.Errorf("%q after its other case: %v, want ErrConflict", name, err)
			}
		}
		for id, name := range ids {
			a, err := s.AccountByKey(ctx, account.Key(name))
			if err != nil || a.ID != id || a.Name != name || a.Key != account.Key(name) || a.PasswordHash != "h-"+name ||
				a.IsBot() || !a.Created.Equal(t0) {
				t.Errorf("by key %q: %+v, %v", account.Key(name), a, err)
			}
			if b, err := s.AccountByID(ctx, id); err != nil || b != a {
				t.Errorf("by id %d: %+v, %v; want %+v", id, b, err, a)
			}
		}
		if _, err := s.AccountByKey(ctx, "nobody"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("an unknown key: %v, want ErrNotFound", err)
		}
		if _, err := s.AccountByID(ctx, 1<<40); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("an unknown id: %v, want ErrNotFound", err)
		}
	})

	t.Run("of callers creating one name at once exactly one wins", func(t *testing.T) {
		s := openAs[AccountsStore](t, open)
		const n = 8
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				_, errs[i] = s.CreateAccount(ctx, store.Account{Name: "Gela", Key: account.Key("Gela"), PasswordHash: fmt.Sprint(i), Created: t0})
			})
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case !errors.Is(err, store.ErrConflict):
				t.Errorf("a losing caller: %v, want ErrConflict", err)
			}
		}
		if won != 1 {
			t.Errorf("%d callers created the account, want 1", won)
		}
	})

	t.Run("a bot is found by its token and listed under its owner, oldest first", func(t *testing.T) {
		s := openAs[AccountsStore](t, open)
		owner := newAccount(t, s, "Nino")
		other := newAccount(t, s, "Gela")
		var bots []int64
		for i, name := range []string{"Robo", "Alpha"} {
			id, err := s.CreateAccount(ctx, store.Account{Name: name, Key: account.Key(name), Owner: owner,
				BotTokenHash: fmt.Sprintf("t%d", i), Created: t0.Add(time.Duration(i) * time.Second)})
			if err != nil {
				t.Fatal(err)
			}
			bots = append(bots, id)
		}
		a, err := s.AccountByBotToken(ctx, "t0")
		if err != nil || a.ID != bots[0] || a.Owner != owner || !a.IsBot() || a.PasswordHash != "" || !a.Created.Equal(t0) {
			t.Errorf("by bot token: %+v, %v", a, err)
		}
		got, err := s.Bots(ctx, owner)
		if err != nil || len(got) != 2 || got[0].ID != bots[0] || got[1].ID != bots[1] || got[1].Name != "Alpha" {
			t.Errorf("the owner's bots: %+v, %v; want Robo then Alpha", got, err)
		}
		if got, err := s.Bots(ctx, other); err != nil || len(got) != 0 {
			t.Errorf("bots of an account that has none: %+v, %v", got, err)
		}
		if _, err := s.AccountByBotToken(ctx, ""); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("an empty bot token: %v, want ErrNotFound", err)
		}
		if _, err := s.CreateAccount(ctx, store.Account{Name: "Copy", Key: "copy", Owner: owner, BotTokenHash: "t0", Created: t0}); err == nil {
			t.Errorf("a second bot with a token taken was created")
		}
	})

	t.Run("a rotated bot token stops finding its bot", func(t *testing.T) {
		s := openAs[AccountsStore](t, open)
		owner := newAccount(t, s, "Nino")
		bot, err := s.CreateAccount(ctx, store.Account{Name: "Robo", Key: "robo", Owner: owner, BotTokenHash: "t1", Created: t0})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.SetBotToken(ctx, bot, "t2"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.AccountByBotToken(ctx, "t1"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("the old token: %v, want ErrNotFound", err)
		}
		if a, err := s.AccountByBotToken(ctx, "t2"); err != nil || a.ID != bot {
			t.Errorf("the new token: %+v, %v", a, err)
		}
		if err := s.SetBotToken(ctx, owner, "t3"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a bot token for a person's account: %v, want ErrNotFound", err)
		}
		if err := s.SetBotToken(ctx, 1<<40, "t4"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a bot token for no account: %v, want ErrNotFound", err)
		}
	})

	t.Run("a new login forgets the account's expired logins only", func(t *testing.T) {
		s := openAs[AccountsStore](t, open)
		id := newAccount(t, s, "Nino")
		other := newAccount(t, s, "Gela")
		for _, se := range []store.Session{
			{TokenHash: "old", Account: id, Created: t0.Add(-2 * time.Hour), Expires: t0.Add(-time.Hour)},
			{TokenHash: "other-old", Account: other, Created: t0.Add(-2 * time.Hour), Expires: t0.Add(-time.Hour)},
			{TokenHash: "live", Account: id, Created: t0.Add(-time.Hour), Expires: t0.Add(time.Hour)},
			{TokenHash: "new", Account: id, Created: t0, Expires: t0.Add(2 * time.Hour)},
		} {
			if err := s.CreateSession(ctx, se); err != nil {
				t.Fatal(err)
			}
		}
		for h, kept := range map[string]bool{"old": false, "other-old": true, "live": true, "new": true} {
			if _, err := s.Session(ctx, h); (err == nil) != kept || (err != nil && !errors.Is(err, store.ErrNotFound)) {
				t.Errorf("login %s after a new one: %v; want kept %v", h, err, kept)
			}
		}
		se, err := s.Session(ctx, "new")
		if err != nil || se.Account != id || !se.Created.Equal(t0) || !se.Expires.Equal(t0.Add(2*time.Hour)) {
			t.Errorf("the new login: %+v, %v", se, err)
		}
		if err := s.CreateSession(ctx, store.Session{TokenHash: "x", Account: 1 << 40, Created: t0, Expires: t0}); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a login of no account: %v, want ErrNotFound", err)
		}
	})

	t.Run("a password change keeps the login it names and ends the others", func(t *testing.T) {
		s := openAs[AccountsStore](t, open)
		id := newAccount(t, s, "Nino")
		other := newAccount(t, s, "Gela")
		for _, h := range []string{"s1", "s2", "s3"} {
			if err := s.CreateSession(ctx, store.Session{TokenHash: h, Account: id, Created: t0, Expires: t0.Add(time.Hour)}); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.CreateSession(ctx, store.Session{TokenHash: "g1", Account: other, Created: t0, Expires: t0.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		if err := s.SetPassword(ctx, id, "h2", "s2"); err != nil {
			t.Fatal(err)
		}
		for h, kept := range map[string]bool{"s1": false, "s2": true, "s3": false, "g1": true} {
			if _, err := s.Session(ctx, h); (err == nil) != kept {
				t.Errorf("login %s after the change: %v; want kept %v", h, err, kept)
			}
		}
		if a, _ := s.AccountByID(ctx, id); a.PasswordHash != "h2" {
			t.Errorf("password hash %q, want h2", a.PasswordHash)
		}
		if err := s.SetPassword(ctx, id, "h3", ""); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Session(ctx, "s2"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("the kept login after a change keeping none: %v, want ErrNotFound", err)
		}
		if err := s.SetPassword(ctx, 1<<40, "h", ""); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("the password of no account: %v, want ErrNotFound", err)
		}
		bot, err := s.CreateAccount(ctx, store.Account{Name: "Robo", Key: "robo", Owner: id, BotTokenHash: "bt", Created: t0})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.SetPassword(ctx, bot, "h", ""); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a bot's password: %v, want ErrNotFound", err)
		}
	})

	t.Run("logins end one by one or all of an account's", func(t *testing.T) {
		s := openAs[AccountsStore](t, open)
		id := newAccount(t, s, "Nino")
		other := newAccount(t, s, "Gela")
		for _, se := range []store.Session{{TokenHash: "a1", Account: id}, {TokenHash: "a2", Account: id}, {TokenHash: "a3", Account: id},
			{TokenHash: "g1", Account: other}} {
			se.Created, se.Expires = t0, t0.Add(time.Hour)
			if err := s.CreateSession(ctx, se); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.DeleteSession(ctx, "a1"); err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteSession(ctx, "a1"); err != nil {
			t.Errorf("ending a login twice: %v", err)
		}
		if _, err := s.Session(ctx, "a1"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("an ended login: %v, want ErrNotFound", err)
		}
		if _, err := s.Session(ctx, "a2"); err != nil {
			t.Errorf("the login not ended: %v", err)
		}
		if err := s.DeleteSessions(ctx, id); err != nil {
			t.Fatal(err)
		}
		for h, kept := range map[string]bool{"a2": false, "a3": false, "g1": true} {
			if _, err := s.Session(ctx, h); (err == nil) != kept {
				t.Errorf("login %s after DeleteSessions: %v; want kept %v", h, err, kept)
			}
		}
	})

	t.Run("a rehash replaces only a hash that is still the old one", func(t *testing.T) {
		s := openAs[AccountsStore](t, open)
		id := newAccount(t, s, "Nino")
		if err := s.CreateSession(ctx, store.Session{TokenHash: "s", Account: id, Created: t0, Expires: t0.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		if err := s.Rehash(ctx, id, "h-Nino", "strong"); err != nil {
			t.Fatal(err)
		}
		if err := s.Rehash(ctx, id, "h-Nino", "stale"); err != nil {
			t.Errorf("a rehash of a hash changed meanwhile: %v, want no error", err)
		}
		if a, _ := s.AccountByID(ctx, id); a.PasswordHash != "strong" {
			t.Errorf("password hash %q, want strong", a.PasswordHash)
		}
		if _, err := s.Session(ctx, "s"); err != nil {
			t.Errorf("a login after a rehash: %v, want kept", err)
		}
	})

	t.Run("seats keep their accounts", func(t *testing.T) {
		s := openAs[AccountsStore](t, open)
		nino := newAccount(t, s, "Nino")
		bot, err := s.CreateAccount(ctx, store.Account{Name: "Robo", Key: "robo", Owner: nino, BotTokenHash: "bt", Created: t0})
		if err != nil {
			t.Fatal(err)
		}
		seats := []store.Seat{{Seat: 1, Name: "Nino", TokenHash: "a", Account: nino}, {Seat: 2, Name: "Robo", TokenHash: "b", Account: bot, BotAccount: true},
			{Seat: 3, Name: "guest", TokenHash: "c"}, {Seat: 4, Name: "Bot 4", Bot: true}}
		if err := s.CreateTable(ctx, store.Table{ID: "t", Kind: store.KindOnline, Status: store.StatusLobby}, seats); err != nil {
			t.Fatal(err)
		}
		if _, got, err := s.Table(ctx, store.KindOnline, "t"); err != nil || !slices.Equal(got, seats) {
			t.Errorf("seats\n got %+v, %v\nwant %+v", got, err, seats)
		}
		seats[2].Account, seats[0] = nino, store.Seat{Seat: 1, Name: "other", TokenHash: "d"}
		if err := s.SaveSeats(ctx, "t", seats); err != nil {
			t.Fatal(err)
		}
		if _, got, err := s.Table(ctx, store.KindOnline, "t"); err != nil || !slices.Equal(got, seats) {
			t.Errorf("seats after SaveSeats\n got %+v, %v\nwant %+v", got, err, seats)
		}
	})

	t.Run("an account's games are its ended online ones, newest first, with its card", func(t *testing.T) {
		s := openAs[AccountsStore](t, open)
		nino, gela := newAccount(t, s, "Nino"), newAccount(t, s, "Gela")
		rolesA := endedGame(t, s, "a", t0, map[int]store.Seat{2: {Seat: 2, Name: "Nino", TokenHash: "x", Account: nino},
			5: {Seat: 5, Name: "Gela", TokenHash: "y", Account: gela}})
		rolesB := endedGame(t, s, "b", t0.Add(time.Hour), map[int]store.Seat{7: {Seat: 7, Name: "Nino", TokenHash: "x", Account: nino}})
		// A game still on, and an in-person table, are not listed.
		if err := s.CreateTable(ctx, store.Table{ID: "on", Kind: store.KindOnline, Status: store.StatusPlaying},
			[]store.Seat{{Seat: 1, Name: "Nino", TokenHash: "x", Account: nino}}); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateTable(ctx, store.Table{ID: "ip", Kind: store.KindInPerson, Status: store.StatusEnded},
			[]store.Seat{{Seat: 1, Name: "Nino", Account: nino}}); err != nil {
			t.Fatal(err)
		}
		games, err := s.AccountGames(ctx, nino, gela, 0)
		if err != nil || len(games) != 2 {
			t.Fatalf("Nino's games: %+v, %v", games, err)
		}
		want := []store.AccountGame{
			{Table: "b", Name: "table b", Public: true, Winner: "town", Seat: 7, Players: 7, Role: rolesB[6].String(), Ended: t0.Add(time.Hour)},
			{Table: "a", Name: "table a", Public: true, Winner: "town", Seat: 2, Players: 7, Role: rolesA[1].String(), Ended: t0, ViewerSat: true},
		}
		for i := range want {
			g := games[i]
			if g.Table != want[i].Table || g.Name != want[i].Name || g.Public != want[i].Public || g.Winner != want[i].Winner ||
				g.Seat != want[i].Seat || g.Players != want[i].Players || g.Role != want[i].Role || !g.Ended.Equal(want[i].Ended) ||
				g.ViewerSat != want[i].ViewerSat {
				t.Errorf("game %d: %+v, want %+v", i, g, want[i])
			}
		}
		if games, err := s.AccountGames(ctx, nino, 0, 1); err != nil || len(games) != 1 || games[0].Table != "b" || games[0].ViewerSat {
			t.Errorf("Nino's last game, no viewer: %+v, %v", games, err)
		}
		if games, err := s.AccountGames(ctx, 0, 0, 0); err != nil || len(games) != 0 {
			t.Errorf("the games of account 0 (the guests): %+v, %v; want none", games, err)
		}
	})

	t.Run("a guest seat of an ended game is kept by an account once", func(t *testing.T) {
		s := openAs[AccountsStore](t, open)
		nino := newAccount(t, s, "Nino")
		endedGame(t, s, "a", t0, map[int]store.Seat{4: {Seat: 4, Name: "Bot 4", Bot: true}})
		if err := s.CreateTable(ctx, store.Table{ID: "on", Kind: store.KindOnline, Status: store.StatusPlaying},
			[]store.Seat{{Seat: 1, Name: "Nino", TokenHash: "tok1"}}); err != nil {
			t.Fatal(err)
		}
		for name, c := range map[string][2]string{
			"a game still on": {"on", "tok1"}, "a wrong token": {"a", "nope"}, "an empty token": {"a", ""},
			"no such table": {"none", "tok1"},
		} {
			if err := s.KeepSeat(ctx, c[0], c[1], nino); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("%s: %v, want ErrNotFound", name, err)
			}
		}
		if err := s.KeepSeat(ctx, "a", "tok3", nino); err != nil {
			t.Fatal(err)
		}
		if err := s.KeepSeat(ctx, "a", "tok3", nino); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("keeping a seat twice: %v, want ErrNotFound", err)
		}
		_, seats, err := s.Table(ctx, store.KindOnline, "a")
		if err != nil || seats[2].Account != nino || seats[0].Account != 0 {
			t.Errorf("seats after keeping seat 3: %+v, %v", seats, err)
		}
		if games, err := s.AccountGames(ctx, nino, 0, 0); err != nil || len(games) != 1 || games[0].Table != "a" || games[0].Seat != 3 {
			t.Errorf("the kept game: %+v, %v", games, err)
		}
	})
}
