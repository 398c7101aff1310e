package attack

import (
	"context"
	"fmt"
	"testing"
	"time"

	"mafia/client"
	"mafia/server"
	"mafia/wire"
)

// TestAttack_AbandonedGamesStopWriting (issue 17, item 6): an attacker
// starts many games of bots, one seat of each its own, lets them run and
// walks away from all of them (a spectator of its own stays at each). On
// the real clock, with the server's freeze time set short (1 s), every
// game that has not ended freezes (the lobby says paused, no_players) and
// the store's writes (the operator's mafia_store_writes_total) stop while
// the spectators watch; they start again when a person comes back, who
// plays that game to its end.
func TestAttack_AbandonedGamesStopWriting(t *testing.T) {
	needAddrs(t)
	t.Parallel()
	tg := start(t, func(c *server.Config) { c.FreezeAfter = time.Second })
	ctx := within(t, 60*time.Second)
	games := count(12, 4)
	timings := map[string]int64{"speech": 1000, "defence": 500, "tie_speech": 500, "last_words": 500, "night": 1500, "vote": 500}
	type left struct {
		table, host string
	}
	var abandoned []left
	var people []*client.Conn
	for g := 0; g < games; g++ {
		api := &client.API{Base: tg.base, HTTP: from(fmt.Sprintf("127.0.90.%d", g/5+1))} // five tables an address
		created, err := api.Create(ctx, client.CreateRequest{Name: "left behind", Players: 9, TimingsMS: timings,
			Options: map[string]string{"round_limit": "2"}}) // the one played to its end ends soon
		if err != nil {
			t.Fatal(err)
		}
		if _, err := api.Join(ctx, created.Table, "Walker", 1, created.HostToken); err != nil {
			t.Fatal(err)
		}
		c, err := api.Dial(ctx, created.Table, created.HostToken, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer c.CloseNow()
		for _, a := range []string{"add_bots", "start"} {
			if m, err := roundTrip(ctx, c, wire.ClientMessage{Type: "host", Action: a}); err != nil || m.Type != "reply" {
				t.Fatalf("%s: %+v %v", a, m, err)
			}
		}
		abandoned = append(abandoned, left{created.Table, created.HostToken})
		people = append(people, c)
	}
	// The games run (and write) until their first day; then their people
	// go, and a spectator of the attacker's stays at each.
	for i, c := range people {
		for c.View == nil || c.View.Phase == "night" {
			if _, err := c.Read(ctx); err != nil {
				t.Fatal(err)
			}
		}
		c.CloseNow()
		spy, err := (&client.API{Base: tg.base, HTTP: from("127.0.90.99")}).Dial(ctx, abandoned[i].table, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		defer spy.CloseNow()
		go func() { // the spectator reads whatever comes
			for {
				if _, err := spy.Read(ctx); err != nil {
					return
				}
			}
		}()
	}
	// Every game freezes or ends, well within 20 s (the freeze time is 1 s).
	soon, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	lobby := &client.API{Base: tg.base, HTTP: from("127.0.91.1")}
	frozen, ended := 0, 0
	var back left
	for _, g := range abandoned {
		for {
			l, err := lobby.Table(soon, g.table)
			if err != nil && soon.Err() == nil {
				t.Fatal(err)
			}
			if l.Status == "ended" {
				ended++
				break
			}
			if l.Paused && l.PauseReason == "no_players" {
				frozen++
				back = g
				break
			}
			if soon.Err() != nil {
				t.Fatalf("table %s neither froze nor ended in 20 s (%d froze, %d ended): %+v", g.table, frozen, ended, l)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	if frozen == 0 {
		t.Fatalf("of %d abandoned games, none froze (%d ended)", games, ended)
	}
	// Nothing is written while they are frozen (two night ticks' worth
	// of waiting), spectators or not.
	before := tg.counter(ctx, t, "mafia_store_writes_total")
	time.Sleep(2 * time.Second)
	still := tg.counter(ctx, t, "mafia_store_writes_total")
	t.Logf("%d games abandoned: %d froze, %d ended; %.0f writes so far, %.0f more in 2 s frozen", games, frozen, ended, before, still-before)
	if still != before {
		t.Errorf("%.0f store writes in 2 s with every game frozen or over", still-before)
	}
	// A person comes back: the game goes on (and writes) to its end.
	api := &client.API{Base: tg.base, HTTP: from("127.0.92.1")}
	c, err := api.Dial(ctx, back.table, back.host, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	p := &player{api: api, table: back.table, host: back.host, conn: c}
	began := time.Now()
	// The game may have frozen in its last round: it goes on to its end,
	// and what pins that it went on is that it wrote (below).
	if err := p.finish(ctx, 1); err != nil {
		t.Fatal(err)
	}
	t.Logf("the game played to its end in %v", time.Since(began))
	if after := tg.counter(ctx, t, "mafia_store_writes_total"); after <= still {
		t.Errorf("the game its person came back to wrote nothing (%.0f writes before, %.0f after)", still, after)
	}
}
