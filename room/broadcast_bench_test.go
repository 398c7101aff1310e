package room

import (
	"log/slog"
	"testing"

	"mafia/bot"
	"mafia/engine"
	"mafia/rng"
	"mafia/store"
)

// benchTable is an 11-seat table in its first vote, every seat connected
// once and a spectator too, built without a store: what a broadcast costs.
func benchTable(b *testing.B) *Room {
	b.Helper()
	setup, err := engine.Preset(11)
	if err != nil {
		b.Fatal(err)
	}
	rules, _ := engine.ParseRules(nil)
	g, evs, err := engine.New(rules, setup.Deal(7, nil), 7)
	if err != nil {
		b.Fatal(err)
	}
	r := newRoom(Config{Log: slog.New(slog.DiscardHandler), SendBuffer: 1 << 20}, store.Table{ID: "bench", Kind: store.KindOnline}, Settings{Name: "bench", Setup: setup}, rules, DefaultTimings())
	r.setGame(g, append([]engine.Event(nil), evs...))
	bots := make([]*bot.Random, 12)
	for s := 1; s <= 11; s++ {
		bots[s] = bot.NewRandom(rng.Derive(7, uint64(s)))
	}
	// Play until a vote opens with at least two candidates.
	for i := 0; i < 10000 && !(g.Phase() == engine.PhaseVote && len(g.Candidates()) > 1); i++ {
		acted := false
		for s := 1; s <= 11; s++ {
			if !g.MayAct(engine.Seat(s)) && !(g.Phase().Timed() && g.Speaker() == engine.Seat(s)) {
				continue
			}
			v := g.ViewFor(engine.Seat(s))
			if cmd, ok := bots[s].Act(&v); ok {
				if e, err := g.Handle(cmd); err == nil {
					r.log = append(r.log, e...)
					acted = true
					break
				}
			}
		}
		if !acted {
			e, err := g.Handle(engine.Command{Verb: engine.Next})
			if err != nil {
				b.Fatal(err)
			}
			r.log = append(r.log, e...)
		}
		if g.Ended() {
			b.Fatal("the game ended before a vote")
		}
	}
	r.table.Status = "playing"
	r.markSent(len(r.log) - 1) // all but the vote's opening
	for s := 0; s <= 11; s++ {
		sub := &Sub{Seat: engine.Seat(s), room: r}
		r.subs[sub] = struct{}{}
		if s > 0 {
			r.seats[s].conns++
		}
	}
	r.publishLobby()
	return r
}

// drainSubs empties every queue, releasing the frames as a writer does.
func drainSubs(r *Room) {
	for sub := range r.subs {
		for {
			o, ok, _ := sub.Take()
			if !ok {
				break
			}
			o.Release()
		}
	}
}

// BenchmarkBroadcast11 measures one broadcast at an 11-seat table: a public
// event (the vote opens: every seat's frame differs), a vote (one seat
// sees it; the others get a pad of the same length), and a night tick with
// nothing to deliver (two pads a seat).
func BenchmarkBroadcast11(b *testing.B) {
	b.Run("public", func(b *testing.B) {
		r := benchTable(b)
		from := len(r.log) - 1 // vote_began
		b.ReportAllocs()
		for b.Loop() {
			r.sent = from
			r.broadcast(from)
			drainSubs(r)
		}
	})
	b.Run("vote", func(b *testing.B) {
		r := benchTable(b)
		r.broadcast(len(r.log) - 1) // the vote opens: its floor
		drainSubs(r)
		g := r.game
		var voter engine.Seat
		for s := engine.Seat(1); s <= 11; s++ {
			if g.MayAct(s) {
				voter = s
				break
			}
		}
		c := g.Candidates()
		e, err := g.Handle(engine.Command{Verb: engine.Vote, By: voter, Target: c[0]})
		if err != nil {
			b.Fatal(err)
		}
		r.log = append(r.log, e...)
		from := len(r.log) - 1
		b.ReportAllocs()
		for b.Loop() {
			r.sent = from
			r.broadcast(from)
			drainSubs(r)
		}
	})
	b.Run("tick", func(b *testing.B) {
		r := benchTable(b)
		r.broadcast(len(r.log) - 1) // the step's floor
		drainSubs(r)
		b.ReportAllocs()
		for b.Loop() {
			r.nightTick()
			drainSubs(r)
		}
	})
}
