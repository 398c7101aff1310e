package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"testing"
	"time"

	"mafia/account"
	"mafia/client"
	"mafia/internal/pgtest"
	"mafia/rating"
	"mafia/rng"
	"mafia/store"
	"mafia/store/postgres"
	"mafia/wire"
)

// playSeat plays one seat to the game's end with random legal moves, one
// request at a time.
func playSeat(ctx context.Context, c *client.Conn, seed uint64) error {
	src := rng.New(seed)
	waiting := int64(0)
	fresh := c.View != nil
	for {
		if v := c.View; waiting == 0 && fresh && v != nil && v.Phase != "ended" {
			fresh = false
			m, ok := client.RandomMove(v, &src)
			if !ok && v.Legal.Pass {
				m, ok = wire.ClientMessage{Type: "command", Verb: "pass"}, true
			}
			if ok {
				id, err := c.Send(ctx, m)
				if err != nil {
					return err
				}
				waiting = id
			}
		}
		if c.View != nil && c.View.Phase == "ended" {
			return nil
		}
		data, err := c.ReadRaw(ctx)
		if err != nil {
			return err
		}
		m, err := c.Absorb(data)
		if err != nil {
			return err
		}
		if (m.Type == "reply" || m.Type == "error") && m.ID == waiting {
			waiting = 0
		}
		fresh = fresh || m.View != nil
	}
}

// TestServe_OnPostgreSQLRatesAGameOfAccounts: `mafia serve --db
// postgres://...` keeps accounts, their bots and ratings in PostgreSQL: two
// accounts and five bot accounts (made in the database by package account,
// as another node would) play a rated table through the server; the
// database then holds each player's ratings, the game on their profile,
// and the leaderboard the server serves ranks them.
func TestServe_OnPostgreSQLRatesAGameOfAccounts(t *testing.T) {
	url := pgtest.URL(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	db, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	base := startServeInProcess(t, "--db", url, "--seats-per-address", "0", "--unlimited", "127.0.0.0/8")

	svc := account.New(account.Config{Store: db, Params: account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}})
	var creds []string
	var ids []int64
	for _, n := range []string{"Nino", "Gio"} {
		p, tok, err := svc.Signup(ctx, n, "password1", "")
		if err != nil {
			t.Fatal(err)
		}
		creds, ids = append(creds, tok), append(ids, p.Account.ID)
	}
	owner, err := svc.Authenticate(ctx, creds[0])
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 5; i++ {
		b, tok, err := svc.CreateBot(ctx, owner, "Robo"+strconv.Itoa(i))
		if err != nil {
			t.Fatal(err)
		}
		creds, ids = append(creds, tok), append(ids, b.ID)
	}

	api := &client.API{Base: base}
	created, err := api.Create(ctx, client.CreateRequest{Name: "rated", Players: 7, Rated: true,
		TimingsMS: map[string]int64{"speech": 5000, "defence": 5000, "tie_speech": 5000, "last_words": 5000, "night": 150, "vote": 400}})
	if err != nil {
		t.Fatal(err)
	}
	var conns []*client.Conn
	for _, c := range creds {
		j, err := api.Join(ctx, created.Table, "ignored", 0, c)
		if err != nil {
			t.Fatalf("join: %v", err)
		}
		conn, err := api.Dial(ctx, created.Table, j.Token, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		conns = append(conns, conn)
	}
	host, err := api.Dial(ctx, created.Table, created.HostToken, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	if _, err := host.Send(ctx, wire.ClientMessage{Type: "host", Action: "start"}); err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, len(conns))
	for i, c := range conns {
		go func() { errs <- playSeat(ctx, c, uint64(i+1)) }()
	}
	for range conns {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}

	// The server rates the game beside the room once its end is stored:
	// wait until every player has an overall rating.
	for {
		n := 0
		for _, id := range ids {
			rs, err := db.PlayerRatings(ctx, strconv.FormatInt(id, 10))
			if err != nil {
				t.Fatal(err)
			}
			if len(rs) > 0 && rs[0].Kind == rating.Overall && rs[0].Games == 1 {
				n++
			}
		}
		if n == len(ids) {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("%d of %d players rated", n, len(ids))
		}
		time.Sleep(20 * time.Millisecond)
	}
	again := store.RatedGame{Game: created.Table, At: time.Now(), Seats: []rating.Seat{{Player: "1", Side: rating.Town}, {Player: "2", Side: rating.Mafia}}}
	if _, err := db.RateGame(ctx, again); !errors.Is(err, store.ErrAlreadyRated) {
		t.Errorf("the game rated a second time: %v, want ErrAlreadyRated", err)
	}
	games, err := db.AccountGames(ctx, ids[0], ids[1], 0)
	if err != nil || len(games) != 1 || games[0].Table != created.Table || !games[0].ViewerSat || games[0].Role == "" || games[0].Players != 7 {
		t.Errorf("Nino's games in PostgreSQL: %+v, %v", games, err)
	}

	resp, err := http.Get(base + "/api/ratings?kind=overall")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var board struct {
		Standings []json.RawMessage `json:"standings"`
	}
	raw := json.NewDecoder(resp.Body)
	if err := raw.Decode(&board); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /api/ratings: %d, %v", resp.StatusCode, err)
	}
	if len(board.Standings) != len(ids) {
		t.Errorf("the leaderboard served from PostgreSQL has %d rows, want %d", len(board.Standings), len(ids))
	}
}
