package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"mafia/engine"
	"mafia/locale"
	"mafia/seating"
)

// TestSeating_PrintsTheRoundsAsJSON: mafia seating --json prints
// {"rounds":[...]}: every round's tables, each of its seats in order, the
// players 1..N, every player G games, the same for the same seed.
func TestSeating_PrintsTheRoundsAsJSON(t *testing.T) {
	args := []string{"seating", "--players", "20", "--tables", "2", "--games", "10", "--seed", "7", "--avoid", "1-2,3-4", "--json"}
	var out, errOut bytes.Buffer
	if code := run(args, nil, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var got struct {
		Rounds [][][]int `json:"rounds"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	games := map[int]int{}
	if len(got.Rounds) != 10 {
		t.Fatalf("%d rounds; want 10", len(got.Rounds))
	}
	for _, round := range got.Rounds {
		if len(round) != 2 {
			t.Fatalf("a round of %d tables", len(round))
		}
		for _, tab := range round {
			if len(tab) != 10 {
				t.Fatalf("a table of %d seats", len(tab))
			}
			for _, p := range tab {
				games[p]++
			}
		}
	}
	for p := 1; p <= 20; p++ {
		if games[p] != 10 {
			t.Errorf("player %d plays %d games; want 10", p, games[p])
		}
	}
	var again bytes.Buffer
	run(args, nil, &again, &errOut)
	if again.String() != out.String() {
		t.Error("the same seed printed another seating")
	}
}

// TestSeating_PrintsTextWithTheBounds: without --json, each round's tables
// and a line of how the seating meets the bounds, in the asked language.
func TestSeating_PrintsTextWithTheBounds(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"seating", "--players", "12", "--tables", "1", "--games", "5", "--lang", "en"}, nil, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	s := out.String()
	for _, want := range []string{"Round 1\n", "Round 6\n", "Table 1:", "Games for each player: 5.", "Rounds each player sits out: 1."} {
		if !strings.Contains(s, want) {
			t.Errorf("the text lacks %q:\n%s", want, s)
		}
	}
}

// TestSeating_RefusesBadInputWithASentenceAndTheUsage: each bad input exits
// 2 with its refusal's sentence (in ka, en and ru: never the generic one
// or an id) and the usage line.
func TestSeating_RefusesBadInputWithASentenceAndTheUsage(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
	}{
		{"no players", []string{"--tables", "2", "--games", "10"}},
		{"uneven", []string{"--players", "21", "--tables", "2", "--games", "10"}},
		{"a bad pair", []string{"--players", "20", "--tables", "2", "--games", "10", "--avoid", "1-x"}},
		{"a pair of no player", []string{"--players", "20", "--tables", "2", "--games", "10", "--avoid", "1-99"}},
		{"a pair that cannot be apart", []string{"--players", "10", "--tables", "1", "--games", "2", "--avoid", "1-2"}},
	} {
		for _, l := range []string{"ka", "en", "ru"} {
			var out, errOut bytes.Buffer
			code := run(append([]string{"seating", "--lang", l}, c.args...), nil, &out, &errOut)
			lines := strings.Split(strings.TrimSpace(errOut.String()), "\n")
			generic := locale.New(locale.Lang(l)).Refusal(nil)
			if code != 2 || out.Len() != 0 || len(lines) != 2 || lines[0] == generic || strings.Contains(lines[0], "error.") ||
				lines[1] != seatingUsage {
				t.Errorf("%s (%s): exit %d, stderr:\n%s", c.name, l, code, errOut.String())
			}
		}
	}
}

// TestCatalog_EverySeatingRefusalHasASentence: every code of package
// seating has its own sentence in Georgian, English and Russian.
func TestCatalog_EverySeatingRefusalHasASentence(t *testing.T) {
	codes := codesIn(t, "../../seating")
	if len(codes) < 4 {
		t.Fatalf("found %d codes; the scan is broken", len(codes))
	}
	for _, l := range locale.Langs() {
		p := locale.New(l)
		for _, c := range codes {
			if s := p.Refusal(&engine.Error{Code: engine.Code(c), N: 20, Value: "1-x"}); s == p.Refusal(nil) || strings.Contains(s, "{{") {
				t.Errorf("%s %s: %q", l, c, s)
			}
		}
		if seating.Kinds[engine.Code(codes[0])] == engine.KindNone {
			t.Errorf("%s has no kind", codes[0])
		}
	}
}
