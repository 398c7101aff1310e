package main

import (
	"strconv"
	"strings"
	"testing"

	"mafia/locale"
)

// shape matches a sentence of the catalog whatever its Seats are.
type shape struct{ head, tail string }

func shapeOf(p *locale.Printer, id string) shape {
	const mark = "\x00"
	head, tail, _ := strings.Cut(p.T(id, map[string]any{"Seats": mark}), mark)
	return shape{head, tail}
}

func (s shape) matches(line string) bool {
	return len(line) > len(s.head)+len(s.tail) && strings.HasPrefix(line, s.head) && strings.HasSuffix(line, s.tail)
}

// TestPlayTellsATieAgainAsATieAgain plays games in the terminal until some
// reach "shall all of them leave?", in every language, and pins the line
// before that question: the repeat vote's tie ("tied too"), never the first
// tie's "they speak once more, then the town votes again".
func TestPlayTellsATieAgainAsATieAgain(t *testing.T) {
	for _, l := range locale.Langs() {
		t.Run(string(l), func(t *testing.T) {
			p := locale.New(l)
			first, again := shapeOf(p, "event.tie"), shapeOf(p, "event.tie_again")
			allVote := p.T("event.all_vote_began", nil)
			games := 0
			for seed := 1; seed <= 100 && games < 3; seed++ {
				out, errs, code := play(t, sensible, "--seed", strconv.Itoa(seed), "--lang", string(l), "--players", "7")
				if code != 0 {
					t.Fatalf("seed %d: exit %d, stderr %q", seed, code, errs)
				}
				lines := strings.Split(out, "\n")
				for i := 1; i < len(lines); i++ {
					if lines[i] != allVote {
						continue
					}
					games++
					if prev := lines[i-1]; !again.matches(prev) || first.matches(prev) {
						t.Errorf("seed %d: before %q comes %q, not the repeat vote's tie", seed, allVote, prev)
					}
				}
			}
			if games == 0 {
				t.Fatal("no game of seeds 1..100 reached \"shall all of them leave?\"")
			}
		})
	}
}
