package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"mafia/client"
	"mafia/engine"
	"mafia/store"
	"mafia/wire"
)

// TestDeals_DifferBetweenTablesAndTheSeedStaysSecretUntilTheEnd plays a
// dozen complete games (four under -short: the race step's run, where more
// tables of the same add time, not interleavings) on a real server (a
// person, the seatless host, a spectator and bots at each) and checks that every table was dealt from a
// seed of its own (a constant seed fails: every deal would be the same),
// that before the end no frame anyone was sent holds the seed (nor a
// "seed" field at all), nor does the lobby, and the log is refused; and
// that the seed is revealed only where the rules put it: in the game's
// record (GET /api/tables/{id}/log) once the game is over (docs/rules.md: the
// deal is a seeded shuffle; rulings 15: the seed is not the players').
func TestDeals_DifferBetweenTablesAndTheSeedStaysSecretUntilTheEnd(t *testing.T) {
	tables := 12
	if testing.Short() {
		tables = 4
	}
	ts := startServerWith(t, "", func(c *Config) {
		c.SendBuffer = 1024
		c.Limits.Unlimited = loopback // twelve tables from one address
	})
	ctx := within(t, 3*time.Minute)
	// The tables are independent and their games spend most of their time
	// waiting on the clock (more so under the race detector, whose nights
	// and votes are longer: leakTimings), so they are played side by side,
	// as many at once as the package's parallel tests (testpar), in a group
	// that returns when the last has ended.
	var mu sync.Mutex
	seedOf := make([]uint64, tables)
	dealOf := make([]string, tables)
	t.Run("tables", func(t *testing.T) {
		for i := 0; i < tables; i++ {
			t.Run(strconv.Itoa(i), func(t *testing.T) {
				t.Parallel()
				seed, deal := playAndCheckSeed(ctx, t, ts, i)
				mu.Lock()
				seedOf[i], dealOf[i] = seed, deal
				mu.Unlock()
			})
		}
	})
	if t.Failed() {
		return
	}
	seeds := map[uint64]int{}
	deals := map[string]int{}
	for i := 0; i < tables; i++ {
		seed := seedOf[i]
		if j, ok := seeds[seed]; ok {
			t.Errorf("tables %d and %d were dealt with the same seed %d", j, i, seed)
		}
		seeds[seed] = i
		deals[dealOf[i]]++
	}
	if len(deals) < 2 {
		t.Errorf("all %d tables were dealt the same cards: %v", tables, deals)
	}
	t.Logf("%d tables, %d different deals of 7 cards", tables, len(deals))
}

// playAndCheckSeed plays one table's game to its end and checks the seed's
// secrecy; it returns the seed and the deal.
func playAndCheckSeed(ctx context.Context, t *testing.T, ts *testServer, i int) (uint64, string) {
	t.Helper()
	created, err := ts.api.Create(ctx, client.CreateRequest{Name: "deal " + strconv.Itoa(i), Players: 7, TimingsMS: leakTimings})
	if err != nil {
		t.Fatal(err)
	}
	id := created.Table
	j, err := ts.api.Join(ctx, id, "Nino", 1, "")
	if err != nil {
		t.Fatal(err)
	}
	host := newPlayer(ts.api.Base, id, created.HostToken, 0, 0)
	everyone := []*player{host, newPlayer(ts.api.Base, id, "", 0, 0), newPlayer(ts.api.Base, id, j.Token, 1, uint64(i)+1)}
	for _, pl := range everyone {
		pl.keep = true
		if _, err := pl.connect(ctx); err != nil {
			t.Fatal(err)
		}
	}
	for _, a := range []string{"add_bots", "start", "pause"} {
		if err := host.call(ctx, wire.ClientMessage{Type: "host", Action: a}); err != nil {
			t.Fatalf("%s: %v", a, err)
		}
	}
	// The deal, from the store (the test's oracle).
	tb, _, err := ts.db.Table(ctx, store.KindOnline, id)
	if err != nil {
		t.Fatal(err)
	}
	evs, err := ts.db.Events(ctx, id)
	if err != nil || len(evs) == 0 || evs[0].Kind != engine.EvGameStarted {
		t.Fatalf("no deal stored: %v", err)
	}
	seed := evs[0].Seed
	if seed == 0 || tb.Seed != seed {
		t.Fatalf("the stored seed: table %d, deal %d", tb.Seed, seed)
	}
	secret := strconv.FormatUint(seed, 10)
	// The seed's digits as a number of their own in a frame (not inside a
	// longer one, such as a time); a seed too short to be told from other
	// numbers (a random one is this short once in 10 million) is sought
	// only as the "seed" field.
	holds := func(f []byte) bool {
		if len(secret) < 12 {
			return false
		}
		return regexp.MustCompile(`(^|[^0-9])` + secret + `([^0-9]|$)`).Match(f)
	}
	var deal []string
	for s := 1; s <= 7; s++ {
		deal = append(deal, engine.Role(evs[0].PerSeat[s]).String())
	}

	// While the game goes on: the lobby does not hold it, the log is refused.
	status, _, body := apiCall(ctx, t, ts.api.Base, "GET", "/api/tables/"+id, "", "", "")
	if status != 200 || holds(body) {
		t.Errorf("table %d: the lobby during the game (%d) holds the seed", i, status)
	}
	for tok, want := range map[string]int{"": 403, created.HostToken: 409, j.Token: 409} {
		if status, _, body := apiCall(ctx, t, ts.api.Base, "GET", "/api/tables/"+id+"/log", "", tok, ""); status != want || holds(body) {
			t.Errorf("table %d: the log during the game: %d %.200s, want %d", i, status, body, want)
		}
	}
	if err := host.call(ctx, wire.ClientMessage{Type: "host", Action: "resume"}); err != nil {
		t.Fatal(err)
	}
	if err := <-playAll(ctx, everyone).done; err != nil {
		t.Fatal(err)
	}

	// Every frame before the end: no seed, no "seed" field.
	for _, pl := range everyone {
		who := fmt.Sprintf("table %d, seat %d (host %v)", i, pl.seat, pl.token == created.HostToken)
		for n, f := range pl.frames {
			if bytes.Contains(f, []byte(`"game_ended"`)) {
				break
			}
			if holds(f) || bytes.Contains(f, []byte(`"seed"`)) {
				t.Errorf("%s: frame %d before the end holds the seed: %.300s", who, n, f)
			}
		}
	}
	// The record, once it is over, reveals it (to a player: the table is private).
	status, _, body = apiCall(ctx, t, ts.api.Base, "GET", "/api/tables/"+id+"/log", "", j.Token, "")
	var rec struct {
		Events []wire.Event `json:"events"`
	}
	if err := json.Unmarshal(body, &rec); status != 200 || err != nil || len(rec.Events) == 0 || rec.Events[0].Seed != secret {
		t.Errorf("table %d: the record after the end (%d) does not give the seed %s", i, status, secret)
	}
	return seed, strings.Join(deal, ",")
}
