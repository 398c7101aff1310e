package room_test

import (
	"slices"
	"testing"

	"mafia/engine"
	"mafia/rng"
)

// TestFrameLengthsWithinAStep plays random games with a person in every
// seat (presets, and a 20-seat table with nine mafiosi, the most frames a
// night's actions can grow) and checks what the seats' connections got:
//
//   - every seat got the same frames: the same number at the same moments,
//     of the same lengths, in the same order;
//   - within a night, every tick's first frame (slot A) has one length:
//     the night's floor holds whatever the night roles do and whenever
//     (their moves come at random moments of the night);
//   - within a vote, the frames that carry votes (only on a public
//     broadcast before the close: a vote alone is answered by its reply,
//     TestAVoteIsAnsweredByItsReplyAlone) have one length.
func TestFrameLengthsWithinAStep(t *testing.T) {
	big := engine.Setup{Don: 1, Mafia: 8, Maniac: 1, Detective: 1, Doctor: 1, Citizens: 8}
	cases := []struct {
		name  string
		setup func(t *testing.T) engine.Setup
		seed  uint64
	}{
		{"5 seats", preset(5), 1}, {"7 seats", preset(7), 2}, {"9 seats", preset(9), 3},
		{"11 seats", preset(11), 4}, {"11 seats again", preset(11), 5},
		{"20 seats, 9 mafiosi", func(*testing.T) engine.Setup { return big }, 6},
	}
	if testing.Short() {
		cases = cases[3:]
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			set := settings(t, 5, nightTimings)
			set.Setup = c.setup(t)
			set.Options = map[string]string{"reveal_on_death": "role"}
			n := set.Setup.Players()
			f := newFixture(t, set, nil)
			cs := f.fillWithPeople(n)
			host := f.hostClient()
			for _, p := range cs[1:] { // from the start on: before it, each saw the later ones connect
				p.drain()
				p.wire = nil
			}
			host.must(hostAction("start", 0))
			src := rng.New(c.seed)
			for step := 0; !cs[1].ended(); step++ {
				if step > 20000 {
					t.Fatal("no end")
				}
				acted := false
				for _, p := range cs[1:] {
					p.drain()
					if p.phase() == "night" && src.Intn(6) != 0 {
						continue // the night's moves spread over its ticks
					}
					if m, ok := p.randomMove(&src); ok {
						acted = true
						p.send(m)
					}
				}
				if !acted {
					f.advance(tick)
				}
			}
			drainAll(cs[1:]...)
			first := cs[1].wire
			for _, p := range cs[2:] {
				if len(p.wire) != len(first) {
					t.Fatalf("seat %d got %d frames, seat 1 %d", p.seat, len(p.wire), len(first))
				}
				for i, w := range p.wire {
					if w.at != first[i].at || w.size != first[i].size {
						t.Fatalf("frame %d: seat %d got %d bytes at %v, seat 1 %d bytes at %v (%v, %v)", i, p.seat,
							w.size, w.at, first[i].size, first[i].at, w.kinds, first[i].kinds)
					}
				}
			}
			// By step: the lengths of slot A at night, of the votes' frames.
			// A frame is a vote's when some seat's copy carries a vote.
			nights, votes, k := 0, 0, 0
			var slotA, voteFrames []int
			night, voting := false, false
			check := func() {
				if len(slotA) > 0 && slices.Min(slotA) != slices.Max(slotA) {
					t.Errorf("night %d: slot A frames of %v bytes", nights, slotA)
				}
				if len(voteFrames) > 0 && slices.Min(voteFrames) != slices.Max(voteFrames) {
					t.Errorf("vote %d: the votes' frames are %v bytes", votes, voteFrames)
				}
				slotA, voteFrames = nil, nil
			}
			for i, w := range first {
				var kinds []string
				for _, p := range cs[1:] {
					kinds = append(kinds, p.wire[i].kinds...)
				}
				if slices.ContainsFunc(kinds, func(k string) bool {
					return k == "night_began" || k == "night_ended" || k == "vote_began" || k == "vote_closed" || k == "game_ended"
				}) {
					check()
					night, voting, k = slices.Contains(kinds, "night_began"), slices.Contains(kinds, "vote_began"), 0
					nights += b2i(night)
					votes += b2i(voting)
					continue
				}
				if w.typ == "update" && len(kinds) == 0 {
					continue // the lobby (the start sends it after the night's first frame)
				}
				// At night the frames come in pairs, at the ticks: slot A, slot B.
				if night {
					if k%2 == 0 {
						slotA = append(slotA, w.size)
					} else if w.typ != "pad" {
						t.Errorf("night %d: slot B is a %s with nobody chatting", nights, w.typ)
					}
					k++
				}
				if voting && (slices.Contains(kinds, "vote_cast") || slices.Contains(kinds, "all_vote_cast")) {
					voteFrames = append(voteFrames, w.size)
				}
			}
			check()
			if nights == 0 || votes == 0 {
				t.Errorf("%d nights and %d votes: the game did not exercise them", nights, votes)
			}
			t.Logf("%d frames a seat, %d nights, %d votes", len(first), nights, votes)
		})
	}
}

func preset(n int) func(t *testing.T) engine.Setup {
	return func(t *testing.T) engine.Setup {
		s, err := engine.Preset(n)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
