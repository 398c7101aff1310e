package attack

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"mafia/client"
	"mafia/server"
	"mafia/wire"
)

// logWatch is a log handler that tells when a message is logged.
type logWatch struct {
	msg  string
	once *sync.Once
	seen chan struct{}
}

func (w logWatch) Enabled(context.Context, slog.Level) bool { return true }
func (w logWatch) Handle(_ context.Context, r slog.Record) error {
	if r.Message == w.msg {
		w.once.Do(func() { close(w.seen) })
	}
	return nil
}
func (w logWatch) WithAttrs([]slog.Attr) slog.Handler { return w }
func (w logWatch) WithGroup(string) slog.Handler      { return w }

// onBoard reports whether name has a rating on the overall leaderboard.
func onBoard(ctx context.Context, t *testing.T, base, name string) bool {
	t.Helper()
	a := ask(ctx, t, from("127.0.159.1"), "GET", base+"/api/ratings?kind=overall", nil, "")
	var board server.LeaderboardJSON
	if a.status != http.StatusOK || json.Unmarshal(a.body, &board) != nil {
		t.Fatalf("the leaderboard: %d %s", a.status, a.body)
	}
	for _, s := range board.Standings {
		if s.Name == name {
			return true
		}
	}
	return false
}

// TestAttack_RatingFarm (issue 25, item 9): a farmer, a second account
// from the farmer's address and their bot accounts (half of them from
// another machine) try to take all 5 seats of a rated table; the server's
// stand-ins would play it out. They get one seat (own_seat_limit for the
// farmer's bots, seat_limit for the second account and its bots, which
// the second account's login from the farmer's address links to the
// farmer's seat). The farmer then fills the table with
// four more accounts from four other addresses and plays none of the
// seats: the stand-ins play the whole game, which ends and is not rated
// (the server logs it), and the farmer is on no leaderboard. Today's
// build let the farm sit and rated its game: the farmer on the board.
func TestAttack_RatingFarm(t *testing.T) {
	needAddrs(t)
	t.Parallel()
	w := logWatch{msg: "a rated game not rated: played by stand-ins", once: &sync.Once{}, seen: make(chan struct{})}
	tg := start(t, func(c *server.Config) { c.Log = slog.New(w) })
	ctx := within(t, 90*time.Second)
	const farm = "127.0.150.1"
	farmer := signupFrom(ctx, t, tg.base, farm, "Farmer")
	fbots := botsOf(ctx, t, tg.base, farm, farmer, "Crop", 4)
	second := signupFrom(ctx, t, tg.base, farm, "Farmhand")
	sbots := botsOf(ctx, t, tg.base, farm, second, "Hoe", 2)
	standIn := int64(100)
	api := &client.API{Base: tg.base, HTTP: from(farm)}
	created, err := api.Create(ctx, client.CreateRequest{Name: "the farm", Players: 5, TimingsMS: gameTimings, Rated: true, StandInMS: &standIn,
		Options: map[string]string{"round_limit": "3"}})
	if err != nil {
		t.Fatal(err)
	}
	creds := append(append(append([]string{farmer}, fbots...), second), sbots...)
	seated, refused := 0, map[string]int{}
	for i, c := range creds {
		ip := farm
		if i%2 == 1 && c != second {
			ip = "127.0.150.2" // a bot from another machine
		}
		st, code := joinAs(ctx, t, tg.base, ip, created.Table, c)
		if st == http.StatusOK {
			seated++
		} else {
			refused[fmt.Sprintf("%d %s", st, code)]++
		}
	}
	t.Logf("the farm's %d joins: %d seats, refused %v", len(creds), seated, refused)
	if seated > 1 {
		t.Errorf("the farmer, their second account and their bots took %d seats of a rated table, want 1", seated)
	}
	if seated == 1 && (refused["403 own_seat_limit"] == 0 || refused["403 seat_limit"] == 0) {
		t.Errorf("refusals %v: want own_seat_limit and seat_limit", refused)
	}
	// The farmer fills the rest from other addresses, with fresh
	// accounts, and plays no seat.
	for i := 0; seated < 5; i++ {
		ip := fmt.Sprintf("127.0.151.%d", i+1)
		c := signupFrom(ctx, t, tg.base, ip, fmt.Sprintf("Sheep%d", i+1))
		if st, code := joinAs(ctx, t, tg.base, ip, created.Table, c); st != http.StatusOK {
			t.Fatalf("a fresh account from %s: %d %s", ip, st, code)
		}
		seated++
	}
	host, err := api.Dial(ctx, created.Table, created.HostToken, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer host.CloseNow()
	if m, err := roundTrip(ctx, host, wire.ClientMessage{Type: "host", Action: "start"}); err != nil || m.Type != "reply" {
		t.Fatalf("start: %+v %v", m, err)
	}
	go func() { // the host reads on, so that its socket is not dropped
		for {
			if _, err := host.Read(ctx); err != nil {
				return
			}
		}
	}()
	for {
		l, err := api.Table(ctx, created.Table)
		if err != nil {
			t.Fatal(err)
		}
		if l.Status == "ended" {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the stand-ins' game never ended: %s", l.Status)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The rating is made beside the room: either the server says the game
	// is not rated, or the farmer appears on the board.
	for {
		select {
		case <-w.seen:
			if onBoard(ctx, t, tg.base, "Farmer") {
				t.Errorf("the farmer is on the leaderboard after a game the stand-ins played")
			}
			return
		case <-ctx.Done():
			t.Fatal("the game was neither rated nor refused a rating")
		case <-time.After(50 * time.Millisecond):
		}
		if onBoard(ctx, t, tg.base, "Farmer") {
			var names []string
			a := ask(ctx, t, from("127.0.159.1"), "GET", tg.base+"/api/ratings?kind=overall", nil, "")
			names = append(names, strings.TrimSpace(string(a.body)))
			t.Fatalf("the farm's game was rated: the farmer is on the leaderboard %v", names)
		}
	}
}
