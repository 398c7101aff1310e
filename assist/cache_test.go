package assist_test

import (
	"net/http"
	"sync"
	"testing"

	"mafia/assist"
	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/engine"
	"mafia/wire"
)

// plays are the entries each game of the cache's tests is played with.
var plays = []engine.Command{hosttest.Kill7, hosttest.Next, hosttest.Next, {Verb: engine.Nominate, By: 1, Target: 4}}

// checkPlayed checks that game c was played with its first n plays, once
// each: the host's reply holds them, and the stored log is their replay.
func checkPlayed(t *testing.T, ts *hosttest.Server, c hosttest.Created, n int) {
	t.Helper()
	var reply struct {
		Commands []record.Command
		Events   int
	}
	ts.GetJSON(t, "/host/api/games/"+c.ID, c.HostToken, &reply)
	_, want, err := record.Replay(&c.Settings, hosttest.Entries(0, plays[:n]...))
	if err != nil {
		t.Fatal(err)
	}
	if len(reply.Commands) != n || reply.Events != len(want) {
		t.Fatalf("game %s: %d entries and %d events, want %d and %d", c.ID, len(reply.Commands), reply.Events, n, len(want))
	}
	log := hosttest.StoredEvents(t, ts, c.ID)
	ws := make([]wire.Event, len(log))
	for i, e := range log {
		ws[i] = wire.FromEvent(e, 7)
	}
	hosttest.CheckLog(t, ws, want)
}

// TestTheGamesInMemoryNeverExceedTheirBound: with room for 3 games, 8 games
// made and played in turn, one entry each at a time, leave at most 3 in
// memory after every request; a game dropped is read again from the store
// when it is next asked for and goes on where it was (every entry applied
// once, its log the replay of its entries).
func TestTheGamesInMemoryNeverExceedTheirBound(t *testing.T) {
	const max = 3
	ts := hosttest.StartServer(t)
	ts.H = assist.New(assist.Config{Store: ts.DB, MaxGames: max})
	inMemory := func(after string) {
		t.Helper()
		if n := assist.GamesInMemory(ts.H); n > max {
			t.Fatalf("after %s: %d games in memory, more than %d", after, n, max)
		}
	}
	var games []hosttest.Created
	for range 8 {
		games = append(games, hosttest.Create7(t, ts, record.DealManual))
		inMemory("a create")
	}
	for i := range plays {
		for _, c := range games {
			if code, a := hosttest.SyncUp(t, ts, c, hosttest.Entries(i, plays[i])...); code != http.StatusOK || a.Applied != i+1 {
				t.Fatalf("entry %d of game %s: %d %+v", i, c.ID, code, a)
			}
			inMemory("a sync")
		}
	}
	for _, c := range games {
		checkPlayed(t, ts, c, len(plays))
		inMemory("a read")
	}
	if n := assist.GamesInMemory(ts.H); n != max {
		t.Errorf("%d games in memory after the tests, want %d (the bound, filled)", n, max)
	}
}

// TestGamesDroppedFromMemoryWhileOthersArePlayedStayRight: with room for 2
// games, 6 hosts play their games at once, one entry at a time: a game is
// never dropped while a request uses it, so every entry is applied once and
// answered, each game's log is the replay of its entries, and once all are
// done at most 2 games are in memory.
func TestGamesDroppedFromMemoryWhileOthersArePlayedStayRight(t *testing.T) {
	const max = 2
	ts := hosttest.StartServer(t)
	ts.H = assist.New(assist.Config{Store: ts.DB, MaxGames: max})
	var games []hosttest.Created
	for range 6 {
		games = append(games, hosttest.Create7(t, ts, record.DealManual))
	}
	var wg sync.WaitGroup
	for _, c := range games {
		wg.Go(func() {
			for i := range plays {
				if code, a := hosttest.SyncUp(t, ts, c, hosttest.Entries(i, plays[i])...); code != http.StatusOK || a.Applied != i+1 {
					t.Errorf("entry %d of game %s: %d %+v", i, c.ID, code, a)
					return
				}
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	if n := assist.GamesInMemory(ts.H); n > max {
		t.Errorf("%d games in memory once the hosts are done, more than %d", n, max)
	}
	for _, c := range games {
		checkPlayed(t, ts, c, len(plays))
	}
}

// TestTwoServersOnOneStorePlayOneGameInTurn: two assistants on one store
// (two nodes of a cluster, Config.Shared), a host's phone reaching one and
// then the other for each entry: each entry is applied once and the game
// goes on from the other's last, where an assistant with its own copy in
// memory would write the game from that stale copy (without Shared the
// third entry is refused 409).
func TestTwoServersOnOneStorePlayOneGameInTurn(t *testing.T) {
	ts := hosttest.StartServer(t)
	a := assist.New(assist.Config{Store: ts.DB, Shared: true})
	b := assist.New(assist.Config{Store: ts.DB, Shared: true})
	ts.H = a
	c := hosttest.Create7(t, ts, record.DealManual)
	for i := range plays {
		ts.H = []*assist.Handler{a, b}[i%2]
		if code, got := hosttest.SyncUp(t, ts, c, hosttest.Entries(i, plays[i])...); code != http.StatusOK || got.Applied != i+1 {
			t.Fatalf("entry %d through server %d: %d %+v", i, i%2+1, code, got)
		}
	}
	checkPlayed(t, ts, c, len(plays))
	ts.H = a
	checkPlayed(t, ts, c, len(plays))
}
