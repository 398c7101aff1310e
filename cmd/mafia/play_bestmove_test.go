package main

import (
	"strings"
	"testing"

	"mafia/engine"
	"mafia/locale"
)

// TestPlayTheFirstVictimTypesTheBestMove: seat 1 of seed 9 is the first
// night's victim (random bots). In their last words, and only there, the
// prompt offers the best move in their language's word; a word without
// three seats is asked again, a seat twice gets the engine's bad_guess
// sentence and nothing is said, and three seats make the best move, told as
// the engine recorded it. The help lists the word.
func TestPlayTheFirstVictimTypesTheBestMove(t *testing.T) {
	for _, c := range []struct {
		lang  locale.Lang
		lines []string
	}{
		{locale.En, []string{"best 2", "best 2 2 3", "best 2 5 9"}},
		{locale.Ru, []string{"лучший 2", "лх 2 2 3", "лучший №2 №5 №9"}},
		{locale.Ka, []string{"საუკეთესო 2", "სვლა 2 2 3", "საუკეთესო 2 5 9"}},
	} {
		t.Run(string(c.lang), func(t *testing.T) {
			p := locale.New(c.lang)
			word := p.Words("best_move")[0]
			offer := p.T("play.choice_best_move", map[string]any{"Word": word})
			queue := append([]string(nil), c.lines...)
			offered, asked := 0, false
			answer := func(screen string) string {
				now := contains(choices(screen), offer)
				if now {
					offered++
				}
				if !asked {
					asked = true
					return p.Words("help")[0]
				}
				if len(queue) > 0 && now {
					line := queue[0]
					queue = queue[1:]
					return line
				}
				if now {
					return "" // the last words end
				}
				return sensible(screen)
			}
			out, errs, code := play(t, answer, "--seed", "9", "--seat", "1", "--lang", string(c.lang))
			if code != 0 {
				t.Fatalf("exit %d, stderr %q", code, errs)
			}
			checkClean(t, out)
			if len(queue) != 0 {
				t.Fatalf("the best move was never offered (left %v):\n%s", queue, out)
			}
			made := p.Event(engine.Event{Kind: engine.EvStatement, Actor: 1, Verb: engine.BestMove, Set: engine.SetOf(2, 5, 9)}, 1)
			for _, want := range []string{
				p.T("play.need_three", map[string]any{"Word": word}),
				p.Refusal(&engine.Error{Code: engine.CodeBadGuess, N: engine.GuessSize, Seat: 1}),
				made,
				"N N N", // the help's line
			} {
				if !strings.Contains(out, want) {
					t.Errorf("the game does not say %q:\n%s", want, out)
				}
			}
			if n := strings.Count(out, made); n != 1 {
				t.Errorf("the best move is told %d times", n)
			}
			// offered on the last words' first prompt (the help is asked
			// there), again after each refusal, then no more: it is made once
			if offered != 4 {
				t.Errorf("the best move was offered on %d prompts, want 4 (then made)", offered)
			}
		})
	}
}
