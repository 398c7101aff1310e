package engine_test

import (
	"testing"

	"mafia/engine"
)

// Tests of the best move (a statement): the first night's victim's guess
// of three mafia, in their last words, once, and its record.

func bestMove(by engine.Seat, guess ...engine.Seat) engine.Command {
	return engine.Command{Verb: engine.BestMove, By: by, Guess: engine.SetOf(guess...)}
}

// firstVictimsWords plays deal8's first night to seat 3's last words
// (the mafia killed 3).
func firstVictimsWords(t *testing.T) *game {
	t.Helper()
	x := newGame(t, deal8)
	x.kill(1, 3)
	x.kill(2, 3)
	x.next(1)
	x.wantPhase(engine.PhaseLastWords, 3)
	return x
}

func TestBestMove_TheFirstVictimsOnceInTheirLastWords(t *testing.T) {
	x := firstVictimsWords(t)
	v := x.g.ViewFor(3)
	if !v.Can(engine.BestMove) || v.Targets(engine.BestMove) != 0 {
		t.Fatalf("the first victim's view: Can(best_move) %v, targets %v", v.Can(engine.BestMove), v.Targets(engine.BestMove).Seats())
	}
	for s := engine.Seat(1); s <= 8; s++ {
		if o := x.g.ViewFor(s); s != 3 && o.Can(engine.BestMove) {
			t.Errorf("seat %d's view offers the best move", s)
		}
	}
	evs := x.do(bestMove(3, 1, 2, 5))
	if len(evs) != 1 || evs[0].Kind != engine.EvStatement || evs[0].Verb != engine.BestMove ||
		evs[0].Actor != 3 || evs[0].Set != engine.SetOf(1, 2, 5) || evs[0].Phase != engine.PhaseLastWords {
		t.Fatalf("best move gave %+v", evs)
	}
	if evs[0].Audience() != engine.AudPublic {
		t.Errorf("a best move's audience is %v, want public", evs[0].Audience())
	}
	talk := x.g.SpectatorView().Talk
	if talk.Len() != 1 || talk.At(0).Guess != engine.SetOf(1, 2, 5) || talk.At(0).Verb != engine.BestMove {
		t.Fatalf("the record holds %+v", talk.At(0))
	}
	if v := x.g.ViewFor(3); v.Can(engine.BestMove) {
		t.Error("the view offers a second best move")
	}
	x.refuse(engine.CodeBestMoveMade, bestMove(3, 4, 6, 7))
	// still the floor: other statements go on
	x.do(cmd(engine.Suspect, 3, 1))
}

func TestBestMove_NamesThreeOtherSeatsOfTheTable(t *testing.T) {
	for _, c := range []struct {
		name  string
		guess []engine.Seat
	}{
		{"two", []engine.Seat{1, 2}},
		{"four", []engine.Seat{1, 2, 4, 5}},
		{"none", nil},
		{"oneself", []engine.Seat{1, 2, 3}},
		{"off the table", []engine.Seat{1, 2, 9}},
		{"the host", []engine.Seat{0, 1, 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			x := firstVictimsWords(t)
			if e := x.refuse(engine.CodeBadGuess, bestMove(3, c.guess...)); e.N != engine.GuessSize || e.Seat != 3 {
				t.Errorf("refusal %+v: want N %d and seat 3", e, engine.GuessSize)
			}
			x.do(bestMove(3, 1, 2, 4)) // nothing changed: still possible
		})
	}
}

func TestBestMove_OnlyTheFirstNightsVictim(t *testing.T) {
	t.Run("a living speaker", func(t *testing.T) {
		x := meetingDay1(t)
		x.refuse(engine.CodeNoBestMove, bestMove(1, 2, 3, 4))
	})
	t.Run("another seat in the victim's last words", func(t *testing.T) {
		x := firstVictimsWords(t)
		x.refuse(engine.CodeNotSpeaker, bestMove(5, 1, 2, 4))
	})
	t.Run("at night", func(t *testing.T) {
		x := newGame(t, deal8)
		x.refuse(engine.CodeWrongPhase, bestMove(3, 1, 2, 4))
	})
	t.Run("voted out", func(t *testing.T) {
		x := meetingDay1(t)
		x.speechesNominating(map[engine.Seat]engine.Seat{1: 5})
		x.until(engine.PhaseVote, 0)
		x.voteAndClose(map[engine.Seat]engine.Seat{1: 5, 2: 5, 3: 5, 4: 5, 5: 5, 6: 5, 7: 5, 8: 5})
		x.wantPhase(engine.PhaseLastWords, 5)
		x.refuse(engine.CodeNoBestMove, bestMove(5, 1, 2, 4))
	})
	t.Run("killed after someone was voted out", func(t *testing.T) {
		x := meetingDay1(t)
		x.speechesNominating(map[engine.Seat]engine.Seat{1: 5})
		x.until(engine.PhaseVote, 0)
		x.voteAndClose(map[engine.Seat]engine.Seat{1: 5, 2: 5, 3: 5, 4: 5, 5: 5, 6: 5, 7: 5, 8: 5})
		x.untilNight(2)
		x.kill(1, 6)
		x.kill(2, 6)
		x.next(1)
		x.wantPhase(engine.PhaseLastWords, 6)
		x.refuse(engine.CodeNoBestMove, bestMove(6, 1, 2, 4))
	})
}

func TestBestMove_AReplayedLogKeepsIt(t *testing.T) {
	x := firstVictimsWords(t)
	x.do(bestMove(3, 1, 2, 5)) // x.do replays the log and compares
	g, err := engine.Replay(x.log)
	if err != nil {
		t.Fatal(err)
	}
	if g.SpectatorView().Talk.At(0).Guess != engine.SetOf(1, 2, 5) {
		t.Error("the replayed record lost the guess")
	}
	// a log whose best move names two seats is refused
	bad := append([]engine.Event(nil), x.log...)
	bad[len(bad)-1].Set = engine.SetOf(1, 2)
	if _, err := engine.Replay(bad); err == nil {
		t.Error("a best move of two seats replayed")
	}
}
