package room_test

import (
	"testing"

	"mafia/engine"
	"mafia/room"
	"mafia/wire"
)

// stepStartKinds are the events that begin a step (docs/protocol.md).
var stepStartKinds = map[string]bool{"night_began": true, "last_words": true, "speech": true, "defence": true,
	"vote_began": true, "tie_speech": true, "all_vote_began": true, "game_ended": true}

// at returns m meant for step.
func at(m wire.ClientMessage, step int) wire.ClientMessage {
	m.Step = step
	return m
}

// toTheRevote plays a 6-seat table of people to day 1's tie between seats 2
// and 3, where seat 6 has not voted: it returns the clients, the host's,
// a spectator's, and the vote's step, with seat 6's vote still unsent.
func toTheRevote(t *testing.T) (f *fixture, cs []*client, host, watch *client, vote int) {
	t.Helper()
	f, cs, host, watch, vote = toTheVote(t)
	for s, c := range map[int]int{1: 2, 2: 2, 3: 2, 4: 3, 5: 3} {
		cs[s].must(at(command("vote", c), vote))
	}
	return f, cs, host, watch, vote
}

// toTheVote plays a 6-seat table of people to day 1's vote between seats 2
// and 3, nobody having voted yet.
func toTheVote(t *testing.T) (f *fixture, cs []*client, host, watch *client, vote int) {
	t.Helper()
	tm := timingsOf(fastTimings)
	f = newFixture(t, settings(t, 6, fastTimings), nil)
	cs = f.fillWithPeople(6)
	watch = f.attach("")
	host = f.hostClient()
	host.must(hostAction("start", 0))
	f.advance(tm.Night) // nobody acted: nobody died
	drainAll(append(cs, watch, host)...)
	cs[1].must(command("nominate", 2))
	cs[1].must(command("pass", 0))
	cs[2].must(command("nominate", 3))
	for i := 0; i < 20 && watch.phase() != "vote"; i++ {
		watch.drain()
		cs[watch.view.Speaker].must(command("pass", 0))
		watch.drain()
	}
	if watch.phase() != "vote" {
		t.Fatalf("no vote: the spectator is in %q", watch.phase())
	}
	drainAll(cs...)
	return f, cs, host, watch, cs[6].view.Step
}

// TestAVoteSentForTheVoteIsNotCountedInTheRevote is issue 17's case: seat
// 6 sends its vote as the vote closes (its abstention counts for the last
// candidate, a 3-3 tie); the vote arrives in the revote, names the vote's
// step, and is refused with stale_step. Nothing is stored, nobody hears of
// it, and seat 6 may still vote in the revote.
func TestAVoteSentForTheVoteIsNotCountedInTheRevote(t *testing.T) {
	tm := timingsOf(fastTimings)
	f, cs, host, watch, vote := toTheRevote(t)
	f.advance(tm.Vote) // the vote closes: seat 6 counted for 3, a tie
	drainAll(append(cs, watch, host)...)
	for watch.phase() == "tie_speech" {
		cs[watch.view.Speaker].must(command("pass", 0))
		drainAll(append(cs, watch, host)...)
	}
	if watch.phase() != "revote" {
		t.Fatalf("no revote: the spectator is in %q (events %v)", watch.phase(), kinds(watch.frames))
	}
	revote := cs[6].view.Step
	if revote == vote {
		t.Fatalf("the vote and the revote are both step %d", vote)
	}
	all := append(append([]*client{}, cs[1:]...), watch, host)
	expectRefusals(t, f, all, []refusal{
		{"the vote's vote in the revote", cs[6], at(command("vote", 3), vote), room.CodeStaleStep},
		{"a vote for a step to come", cs[6], at(command("vote", 3), revote+1), room.CodeStaleStep},
		{"the vote's foul in the revote", host, at(hostAction("foul", 6), vote), room.CodeStaleStep},
		{"a negative step", host, at(hostAction("pause", 0), -1), room.CodeStaleStep},
	})
	if cs[6].view.Voted {
		t.Fatal("seat 6's view says it voted")
	}
	for _, e := range f.events() {
		if e.Kind == engine.EvVoteCast && e.Actor == 6 {
			t.Fatalf("seat 6's stale vote was stored: %+v", e)
		}
	}
	// In the revote's own step the same vote is taken (stored: its event
	// reaches seat 6 when the revote closes), and so is a foul.
	cs[6].must(at(command("vote", 3), revote))
	if !castInThisVote(f, 6, 3) {
		t.Fatalf("seat 6's revote was not taken: %v", f.events())
	}
	host.must(at(hostAction("foul", 5), revote))
}

// castInThisVote reports whether the stored log holds seat's vote for
// target since the last vote (or revote) began.
func castInThisVote(f *fixture, seat, target engine.Seat) bool {
	log := f.events()
	for i := len(log) - 1; i >= 0 && log[i].Kind != engine.EvVoteBegan; i-- {
		if log[i].Kind == engine.EvVoteCast && log[i].Actor == seat && log[i].Target == target {
			return true
		}
	}
	return false
}

// TestAMessageWithoutAStepIsTakenInAnyStep: the field is optional in v1;
// without it a late vote lands in the revote, as it always did.
func TestAMessageWithoutAStepIsTakenInAnyStep(t *testing.T) {
	tm := timingsOf(fastTimings)
	f, cs, _, watch, _ := toTheRevote(t)
	f.advance(tm.Vote)
	for watch.drain(); watch.phase() == "tie_speech"; watch.drain() {
		cs[watch.view.Speaker].must(command("pass", 0))
	}
	cs[6].must(command("vote", 3))
	if !castInThisVote(f, 6, 3) {
		t.Fatal("a vote without a step was not taken")
	}
}

// TestTheStepIsTheSameForEverySeatAndChangesAtStepStarts plays a table of
// people and bots on the clock to its end: every view any connection gets
// (seats, a spectator, the seatless host) carries as its step the number of
// step starts among the events that connection has been sent, so it is the
// same for everyone at any moment and changes exactly at a step start.
func TestTheStepIsTheSameForEverySeatAndChangesAtStepStarts(t *testing.T) {
	views, steps := 0, 0
	for range 4 {
		v, s := stepsOfOneGame(t)
		views, steps = views+v, steps+s
	}
	t.Logf("4 games: %d views checked, %d steps", views, steps)
}

// stepsOfOneGame plays one game for TestTheStepIs...; it returns how many
// views it checked and the game's steps.
func stepsOfOneGame(t *testing.T) (views, steps int) {
	t.Helper()
	f := newFixture(t, settings(t, 7, fastTimings), nil)
	var cs []*client
	for s := 1; s <= 3; s++ {
		_, tok := f.join("person", s)
		cs = append(cs, f.attach(tok))
	}
	cs = append(cs, f.attach(""), f.hostClient())
	cs[len(cs)-1].must(hostAction("add_bots", 0))
	cs[len(cs)-1].must(hostAction("start", 0))
	starts := make([]int, len(cs)) // step starts each connection was sent
	seen := make([]int, len(cs))   // frames of each connection read so far
	checked := 0
	read := func() {
		t.Helper()
		for i, c := range cs {
			c.drain()
			frames := c.frames[seen[i]:]
			seen[i] = len(c.frames)
			for _, fr := range frames {
				for _, e := range fr.msg.Events {
					if stepStartKinds[e.Kind] {
						starts[i]++
					}
				}
				if fr.msg.View != nil {
					checked++
					if fr.msg.View.Step != starts[i] {
						t.Fatalf("seat %d got a view of step %d after %d step starts (%s)", c.seat, fr.msg.View.Step, starts[i], fr.raw)
					}
				}
			}
		}
		for i, c := range cs {
			if c.view != nil && c.view.Step != cs[0].view.Step {
				t.Fatalf("seat %d is at step %d, seat %d at %d", c.seat, c.view.Step, cs[0].seat, cs[0].view.Step)
			}
			if starts[i] != starts[0] {
				t.Fatalf("seat %d was sent %d step starts, seat %d %d", c.seat, starts[i], cs[0].seat, starts[0])
			}
		}
	}
	for i := 0; i < 5000 && !cs[0].ended(); i++ {
		f.advance(tick)
		read()
	}
	if !cs[0].ended() {
		t.Fatal("the game did not end")
	}
	if g := f.replay(); cs[0].view.Step != g.Step() || g.Step() < 5 {
		t.Fatalf("the last view's step %d, the stored game's %d", cs[0].view.Step, g.Step())
	}
	return checked, cs[0].view.Step
}
