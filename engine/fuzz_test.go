package engine_test

import (
	"errors"
	"strconv"
	"testing"

	"mafia/engine"
	"mafia/rng"
)

// FuzzCommands decodes bytes into a table (players, options, deal) and a
// stream of commands, and checks after each one: no panic; a refused
// command is an *engine.Error and changes nothing; after an accepted one,
// Replay of every event so far equals the live game (checked every 16th command and at the end); at most one
// game_ended, the last event, and nothing accepted after it.
//
//	go test ./engine -run=XXX -fuzz=FuzzCommands -fuzztime=30s
func FuzzCommands(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{2, 7, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0xff, 0xff, 0xff, 0xff})
	f.Add([]byte{8, 3, 0, 0, 2, 2, 1, 2, 0, 3, 0, 0, 0x81, 1, 5, 0x82, 2, 3, 0xf0, 0xf0, 0xf0})
	f.Add([]byte{0, 0, 1, 1, 0, 0, 0, 0, 0, 1, 1, 0, 10, 0, 1, 10, 0, 2, 10, 0, 3, 0xf1})
	// a few long streams, mostly legal moves, from fixed seeds
	for seed := uint64(1); seed <= 12; seed++ {
		src := rng.New(seed)
		b := make([]byte, 12+3*300)
		for i := range b {
			b[i] = byte(src.Uint64())
			if i >= 12 && i%3 == 0 && src.Intn(4) != 0 {
				b[i] |= 0x80 // a legal move
			}
		}
		b[0] = byte(seed * 3) // spread the player counts
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzInput {
			data = data[:maxFuzzInput] // replay after every command is quadratic
		}
		d := &fuzzInput{data: data}
		n := engine.MinSeats + int(d.byte())%(engine.MaxSeats-engine.MinSeats+1)
		seed := uint64(d.byte()) | uint64(d.byte())<<8
		r := engine.DefaultRules()
		for _, o := range engine.Options {
			v := d.byte()
			if o.Values == nil {
				if err := r.Set(o.Name, strconv.Itoa(o.Min+int(v)%(o.Max-o.Min+1))); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if err := r.Set(o.Name, o.Values[int(v)%len(o.Values)]); err != nil {
				t.Fatal(err)
			}
		}
		src := rng.New(seed)
		deal := randomSetup(&src, n).Deal(seed, nil)
		g, evs, err := engine.New(r, deal, seed)
		if err != nil {
			t.Fatalf("New(%v, %v): %v", r, deal, err)
		}
		log := append([]engine.Event(nil), evs...)
		ended := 0
		var view engine.View
		for step := 0; d.more(); step++ {
			c := d.command(g, n, &view)
			before := g.Clone()
			wasEnded := g.Ended()
			evs, err := g.Handle(c)
			if err != nil {
				var e *engine.Error
				if !errors.As(err, &e) {
					t.Fatalf("step %d: %s refused with %T %v", step, cmdString(c), err, err)
				}
				if !g.Equal(before) {
					t.Fatalf("step %d: %s refused (%v) but changed the game", step, cmdString(c), err)
				}
				if evs != nil {
					t.Fatalf("step %d: %s refused but returned events", step, cmdString(c))
				}
				if wasEnded && e.Code != engine.CodeGameOver && e.Code != engine.CodeUnknownVerb {
					t.Fatalf("step %d: %s after the end refused with %s", step, cmdString(c), e.Code)
				}
				continue
			}
			if wasEnded {
				t.Fatalf("step %d: %s accepted after the game ended", step, cmdString(c))
			}
			if len(evs) == 0 {
				t.Fatalf("step %d: %s accepted without events", step, cmdString(c))
			}
			log = append(log, evs...)
			for i, e := range evs {
				if e.Kind == engine.EvGameEnded {
					ended++
					if i != len(evs)-1 {
						t.Fatalf("step %d: game_ended is not the last event: %v", step, kinds(evs))
					}
				}
			}
			if ended > 1 {
				t.Fatalf("step %d: %d game_ended events", step, ended)
			}
			if (ended == 1) != g.Ended() || (g.Ended() != (g.Winner() != engine.WinnerNone)) {
				t.Fatalf("step %d: %d game_ended events, Ended %v, winner %q", step, ended, g.Ended(), g.Winner())
			}
			// Replaying the whole log after every command made each run
			// quadratic and starved the fuzzer (it spent its time minimizing
			// slow inputs); every 16th command, the end and the last step
			// catch the same divergences, since state is cumulative.
			if step%16 != 0 && !g.Ended() && d.more() {
				continue
			}
			re, err := engine.Replay(log)
			if err != nil {
				t.Fatalf("step %d: Replay: %v", step, err)
			}
			if !re.Equal(g) {
				t.Fatalf("step %d: after %s the replayed game differs from the live one", step, cmdString(c))
			}
		}
	})
}

// maxFuzzInput bounds a stream to the header and 1000 commands.
const maxFuzzInput = 12 + 3*1000

// fuzzInput reads a fuzzer's bytes; past the end it reads zeros.
type fuzzInput struct {
	data []byte
	pos  int
}

func (d *fuzzInput) more() bool { return d.pos < len(d.data) }

func (d *fuzzInput) byte() byte {
	if d.pos >= len(d.data) {
		return 0
	}
	b := d.data[d.pos]
	d.pos++
	return b
}

// command decodes three bytes: op, by, target. An op with the high bit
// set is a legal move picked from a seat's view (so that streams reach deep
// into games); 0x70..0x7f ends the step; otherwise op names any verb
// (17 = unknown) and by and target any seat, on or off the table (and
// target's bits a claim's card and a report's answer, valid or not).
func (d *fuzzInput) command(g *engine.Game, n int, v *engine.View) engine.Command {
	op, b1, b2 := d.byte(), d.byte(), d.byte()
	yes := b2&0x80 != 0
	if op&0x80 != 0 {
		if c, ok := legalMove(g, n, v, op&0x7f, b1, b2); ok {
			return c
		}
		return engine.Command{Verb: engine.Next}
	}
	if op >= 0x70 {
		return engine.Command{Verb: engine.Next}
	}
	return engine.Command{
		Verb:   engine.Verb(op % 18),
		By:     engine.Seat(int(b1) % (n + 2)),
		Target: engine.Seat(int(b2&0x7f) % (n + 2)),
		Yes:    yes,
		Role:   engine.Role(b2 % 8),
		Result: engine.Result(b2 / 8 % 7),
	}
}

// legalMove picks a move a seat's view offers: the seat by b1 among those
// the game waits for (or any seat), the verb by op, the target by b2.
func legalMove(g *engine.Game, n int, v *engine.View, op, b1, b2 byte) (engine.Command, bool) {
	s := engine.Seat(1 + int(b1)%n)
	if p := g.Pending(); p != 0 && b1&0x80 == 0 {
		s = p.Nth(int(b1) % p.Len())
	} else if sp := g.Speaker(); sp != 0 && b1&0x40 == 0 {
		s = sp
	}
	g.ViewInto(v, s)
	verbs := []engine.Verb{engine.Kill, engine.Check, engine.Shoot, engine.Heal, engine.Skip,
		engine.Nominate, engine.Vote, engine.AllVote, engine.Pass,
		engine.Claim, engine.Report, engine.Suspect, engine.Vouch, engine.WillNominate}
	for i := range verbs {
		verb := verbs[(int(op)+i)%len(verbs)]
		if !v.Can(verb) {
			continue
		}
		c := engine.Command{Verb: verb, By: s, Yes: b2&1 == 1, Role: engine.Citizen + engine.Role(b2%6),
			Result: engine.ResultMafia + engine.Result(b2&1)}
		if verb.HasTarget() {
			t := v.Targets(verb)
			c.Target = t.Nth(int(b2) % t.Len())
		}
		return c, true
	}
	if b2&0x40 != 0 {
		if t := g.Alive(); t != 0 {
			return engine.Command{Verb: engine.Foul, Target: t.Nth(int(b2) % t.Len())}, true
		}
	}
	return engine.Command{}, false
}
