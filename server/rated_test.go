package server

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"mafia/account"
	"mafia/client"
	"mafia/engine"
	"mafia/rating"
	"mafia/room"
	"mafia/store"
	"mafia/store/sqlite"
	"mafia/wire"
)

// unratingDB is the real store whose RateGame keeps nothing: a server on
// it sees a game end and rates nothing, as one that crashed between the
// end and the rating.
type unratingDB struct {
	*sqlite.DB
}

// RateGame takes the game and keeps nothing.
func (unratingDB) RateGame(context.Context, store.RatedGame) ([]rating.Update, error) {
	return nil, nil
}

// ratedServer is a server with accounts on the SQLite file path (a new
// one if ""); unrating: without the ratings (unratingDB).
func ratedServer(t *testing.T, path string, unrating bool) *accountsServer {
	t.Helper()
	var svc *account.Service
	ts := startServerWith(t, path, func(c *Config) {
		if unrating {
			c.Store = unratingDB{DB: c.Store.(*sqlite.DB)}
		}
		svc = account.New(account.Config{Store: c.Store,
			Params: account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}})
		c.Accounts = svc
	})
	return &accountsServer{testServer: ts, svc: svc}
}

// ratedPlayers makes two accounts, Nino and Gio, and five bot accounts of
// Nino's: seven credentials, and the accounts' ids in that order.
func ratedPlayers(t *testing.T, ctx context.Context, as *accountsServer) ([]string, []int64) {
	t.Helper()
	var creds []string
	var ids []int64
	for _, n := range []string{"Nino", "Gio"} {
		a, tok, err := as.svc.Signup(ctx, n, "password1", "")
		if err != nil {
			t.Fatal(err)
		}
		creds, ids = append(creds, tok), append(ids, a.Account.ID)
	}
	owner, err := as.svc.Authenticate(ctx, creds[0])
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 5; i++ {
		b, tok, err := as.svc.CreateBot(ctx, owner, "Robo"+strconv.Itoa(i))
		if err != nil {
			t.Fatal(err)
		}
		creds, ids = append(creds, tok), append(ids, b.ID)
	}
	return creds, ids
}

// playRated makes a rated 7-seat table, seats creds, has the host (not
// seated) start it and plays it to the end.
func playRated(t *testing.T, ctx context.Context, as *accountsServer, creds []string) string {
	t.Helper()
	created, err := as.api.Create(ctx, client.CreateRequest{Name: "rated", Players: 7, TimingsMS: fastTimings, Rated: true})
	if err != nil {
		t.Fatal(err)
	}
	var joined []client.Joined
	for _, c := range creds {
		j, err := as.api.Join(ctx, created.Table, "ignored", 0, c)
		if err != nil {
			t.Fatalf("join: %v", err)
		}
		joined = append(joined, j)
	}
	host, err := as.api.Dial(ctx, created.Table, created.HostToken, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	conns := make([]*client.Conn, len(joined))
	for i, j := range joined {
		if conns[i], err = as.api.Dial(ctx, created.Table, j.Token, 0); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := host.Send(ctx, wire.ClientMessage{Type: "host", Action: "start"}); err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, len(conns))
	for i, c := range conns {
		go func() { _, err := playRandomly(ctx, c, uint64(i+1)); errs <- err }()
	}
	for range conns {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range conns {
		c.Close()
	}
	as.ended(t, ctx, created.Table)
	return created.Table
}

// wantRatings is what rating.Game computes for the stored game: every
// update, by player and kind.
func wantRatings(t *testing.T, ctx context.Context, db *sqlite.DB, table string) map[rating.Key]rating.Rating {
	t.Helper()
	_, seats, err := db.Table(ctx, store.KindOnline, table)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(seats))
	for _, s := range seats {
		ids[s.Seat-1] = strconv.FormatInt(s.Account, 10)
	}
	log, err := db.Events(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	rs, res, err := rating.FromLog(log, ids, nil)
	if err != nil {
		t.Fatal(err)
	}
	us, err := rating.Game(rating.ForMafia(), rs, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[rating.Key]rating.Rating{}
	for _, u := range us {
		want[rating.Key{Player: u.Player, Kind: u.Kind}] = u.After
	}
	return want
}

// rated waits until the store has rated the game of the accounts ids
// (the server rates it beside the room, once the end is stored), and
// returns their ratings.
func rated(t *testing.T, ctx context.Context, db *sqlite.DB, ids []int64) map[rating.Key]store.PlayerRating {
	t.Helper()
	for ctx.Err() == nil {
		got := map[rating.Key]store.PlayerRating{}
		for _, id := range ids {
			prs, err := db.PlayerRatings(ctx, strconv.FormatInt(id, 10))
			if err != nil {
				t.Fatal(err)
			}
			for _, pr := range prs {
				got[rating.Key{Player: pr.Player, Kind: pr.Kind}] = pr
			}
		}
		// Each player's ratings are read apart, so a read may straddle
		// the one commit that rates the game: wait for every player's
		// overall rating, not only for enough of them.
		if len(got) == 2*len(ids) || countRated(got) == len(ids) {
			return got
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the game was never rated")
	return nil
}

// countRated counts the players rated: those with an overall rating, once
// all but at most one of them (a Maniac's seat has no side) have a side's.
func countRated(got map[rating.Key]store.PlayerRating) int {
	overall, side := 0, 0
	for k := range got {
		if k.Kind == rating.Overall {
			overall++
		} else {
			side++
		}
	}
	if overall == 0 || side < overall-1 {
		return -1
	}
	return overall
}

func checkRatings(t *testing.T, got map[rating.Key]store.PlayerRating, want map[rating.Key]rating.Rating) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d ratings, want %d", len(got), len(want))
	}
	for k, w := range want {
		g, ok := got[k]
		if !ok || g.Rating != w || g.Games != 1 {
			t.Errorf("%v: %+v, want %+v after 1 game", k, g, w)
		}
	}
}

// TestRated_TheEndRatesTheGameOnceAsRatingGameComputes: two accounts and
// five bot accounts play a rated table to the end; the server rates it as
// rating.Game computes for the stored result, once.
func TestRated_TheEndRatesTheGameOnceAsRatingGameComputes(t *testing.T) {
	as := ratedServer(t, "", false)
	ctx := within(t, 90*time.Second)
	creds, ids := ratedPlayers(t, ctx, as)
	table := playRated(t, ctx, as, creds)
	checkRatings(t, rated(t, ctx, as.db, ids), wantRatings(t, ctx, as.db, table))
	if _, err := as.db.RateGame(ctx, store.RatedGame{Game: table, At: time.Now(),
		Seats: []rating.Seat{{Player: "1"}, {Player: "2", Side: rating.Mafia}}}); !errors.Is(err, store.ErrAlreadyRated) {
		t.Errorf("rated again: %v, want ErrAlreadyRated", err)
	}
}

// TestRated_ARestartAfterTheEndRatesTheGameLeftOver: a server that saw the
// end but never rated it (a crash between the two) leaves the game to the
// next start, which rates it once; a start after that changes nothing.
func TestRated_ARestartAfterTheEndRatesTheGameLeftOver(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mafia.db")
	as := ratedServer(t, path, true)
	ctx := within(t, 90*time.Second)
	creds, ids := ratedPlayers(t, ctx, as)
	table := playRated(t, ctx, as, creds)
	if prs, err := as.db.PlayerRatings(ctx, strconv.FormatInt(ids[0], 10)); err != nil || len(prs) != 0 {
		t.Fatalf("rated without ratings: %v %v", prs, err)
	}
	as.close()
	for range 2 {
		as = ratedServer(t, path, false) // Resume rates what is left
		checkRatings(t, rated(t, ctx, as.db, ids), wantRatings(t, ctx, as.db, table))
		as.close()
	}
}

// TestRated_AGuestAndTheServersBotsAreRefused: a rated table refuses a
// guest's join and the host's "add bots" with rated_table, and a sandbox
// cannot be rated.
func TestRated_AGuestAndTheServersBotsAreRefused(t *testing.T) {
	as := ratedServer(t, "", false)
	ctx := within(t, 30*time.Second)
	created, err := as.api.Create(ctx, client.CreateRequest{Name: "rated", Players: 7, TimingsMS: fastTimings, Rated: true})
	if err != nil {
		t.Fatal(err)
	}
	if l, err := as.api.Table(ctx, created.Table); err != nil || !l.Rated {
		t.Errorf("the lobby of a rated table: %+v %v, want rated", l, err)
	}
	if _, err := as.api.Join(ctx, created.Table, "guest", 0, ""); codeIs(err) != room.CodeRatedTable {
		t.Errorf("a guest's join: %v, want %s", err, room.CodeRatedTable)
	}
	if _, err := as.api.Join(ctx, created.Table, "host", 0, created.HostToken); codeIs(err) != room.CodeRatedTable {
		t.Errorf("a guest host's join: %v, want %s", err, room.CodeRatedTable)
	}
	host := open(ctx, t, as.http.URL, created.Table, created.HostToken, dialOpts{})
	defer host.close()
	id, err := host.send(ctx, wire.ClientMessage{Type: "host", Action: "add_bots"})
	if err != nil {
		t.Fatal(err)
	}
	for {
		data, m, err := host.read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if m.ID != id {
			continue
		}
		if m.Type != "error" || m.Code != string(room.CodeRatedTable) {
			t.Errorf("add bots: %s, want the error %s", data, room.CodeRatedTable)
		}
		break
	}
	_, err = as.api.Create(ctx, client.CreateRequest{Name: "sb", Players: 7, Rated: true,
		Sandbox: &client.Sandbox{Card: "don", Seat: 1}})
	if codeIs(err) != room.CodeRatedTable {
		t.Errorf("a rated sandbox: %v, want %s", err, room.CodeRatedTable)
	}
}

// codeIs is the code of a refusal the client got.
func codeIs(err error) engine.Code {
	var ce *client.Error
	if errors.As(err, &ce) {
		return engine.Code(ce.Code)
	}
	return ""
}

// flakyRatingsDB is the real store whose RateGame fails its first fails
// calls, as a store that fails for a while (a full disk, a database
// restarting) before it writes again.
type flakyRatingsDB struct {
	*sqlite.DB
	fails, calls *atomic.Int32
}

func (f flakyRatingsDB) RateGame(ctx context.Context, g store.RatedGame) ([]rating.Update, error) {
	if f.calls.Add(1) <= f.fails.Load() {
		return nil, errors.New("the disk is full")
	}
	return f.DB.RateGame(ctx, g)
}

// TestRated_ARatingThatFailsIsTriedAgainUntilTheStoreWrites: a store that
// refuses the rating twice after the end rates the game at the third try,
// once, as rating.Game computes, without waiting for a restart.
func TestRated_ARatingThatFailsIsTriedAgainUntilTheStoreWrites(t *testing.T) {
	saved := rateRetries
	rateRetries = []time.Duration{10 * time.Millisecond, 10 * time.Millisecond, 10 * time.Millisecond}
	t.Cleanup(func() { rateRetries = saved })
	var fails, calls atomic.Int32
	fails.Store(2)
	var svc *account.Service
	ts := startServerWith(t, "", func(c *Config) {
		c.Store = flakyRatingsDB{DB: c.Store.(*sqlite.DB), fails: &fails, calls: &calls}
		svc = account.New(account.Config{Store: c.Store,
			Params: account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}})
		c.Accounts = svc
	})
	as := &accountsServer{testServer: ts, svc: svc}
	ctx := within(t, 90*time.Second)
	creds, ids := ratedPlayers(t, ctx, as)
	table := playRated(t, ctx, as, creds)
	checkRatings(t, rated(t, ctx, as.db, ids), wantRatings(t, ctx, as.db, table))
	if n := calls.Load(); n != 3 {
		t.Errorf("RateGame called %d times, want 3 (two refused, then the rating)", n)
	}
}
