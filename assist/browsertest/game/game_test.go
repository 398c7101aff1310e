package game

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/wire"
)

// TestHostRunsAnElevenPlayerGame plays a whole 11-player game through the
// host's screens, night by night and vote by vote: the wakes in order with
// the answers shown large, the speeches on the clock (with its signals),
// nominations, a tie, a tied repeat vote and "shall all of them leave?",
// fouls up to a lost speech and a removal, to the result; then checks that
// the protocol the server exports is the engine's event log and holds every
// vote as it was entered.
func TestHostRunsAnElevenPlayerGame(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	h := hosttest.OpenHost(t, ts, "host")
	id := h.Create(hosttest.GameSpec{Names: hosttest.Names11, Deal: record.DealPass,
		Timings: map[string]int{"speech": 11, "defence": 30, "tie_speech": 30, "last_words": 60}})
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="reveal"]')`)
	h.Shot("game11-01-pass-hidden")
	h.Tap("reveal")
	h.Shot("game11-02-pass-card")
	h.Tap("hide")

	st := h.State()
	bad := func(st record.State, s int) bool {
		r := st.Roles[s]
		return r == "mafia" || r == "don" || r == "maniac"
	}
	alive := func(st record.State, s int) bool { return slices.Contains(st.Alive, s) }
	living := func(st record.State, keep func(int) bool) []int {
		var out []int
		for _, s := range st.Alive {
			if keep(s) {
				out = append(out, s)
			}
		}
		return out
	}
	var victim int            // the mafia's pick tonight
	checked := map[int]bool{} // the detective's checks
	donChecked := map[int]bool{}
	shots := 0
	timerChecked := false
	shotsTaken := map[string]bool{}
	fouled := map[int]int{} // seat → fouls given by the test
	var foulA, foulB int    // a town player who loses a speech, one who is removed

	d := hosttest.Driver{
		Night: func(st record.State, w record.Wake) int {
			switch w.Role {
			case "mafia":
				town := living(st, func(s int) bool { return !bad(st, s) && slices.Contains(w.Targets, s) })
				victim = town[0]
				return victim
			case "don":
				for _, s := range w.Targets {
					if !donChecked[s] && st.Roles[s] != "mafia" {
						donChecked[s] = true
						return s
					}
				}
			case "detective":
				for _, s := range w.Targets {
					if !checked[s] {
						checked[s] = true
						return s
					}
				}
			case "maniac":
				if shots == 0 && len(w.Targets) > 0 {
					shots++
					return w.Targets[len(w.Targets)-1]
				}
				return 0
			case "doctor":
				if st.Round == 2 && slices.Contains(w.Targets, victim) {
					return victim // saves the mafia's victim
				}
				if len(w.Targets) > 0 {
					return w.Targets[len(w.Targets)-1]
				}
			}
			return 0
		},
		Nominate: func(st record.State) int {
			switch len(st.Candidates) {
			case 0:
				for _, s := range st.Nominate {
					if bad(st, s) {
						return s
					}
				}
			case 1:
				if st.Round == 2 {
					return 0 // day 2: a single candidate
				}
				for _, s := range st.Nominate {
					if !bad(st, s) {
						return s
					}
				}
			}
			return 0
		},
		Hands: func(st record.State, cand int) []int {
			voters := st.Pending
			if st.Round == 1 {
				// Day 1: exactly half the table for the first candidate, in
				// the vote and in the repeat vote: two ties.
				return voters[:len(st.Alive)/2]
			}
			return living(st, func(s int) bool { return !bad(st, s) && slices.Contains(voters, s) })
		},
		Yes: func(st record.State) []int {
			return st.Alive[:len(st.Alive)/2+1] // more than half: all of them leave
		},
		Fouls: func(st record.State, screen string) []int {
			if screen != "speech" {
				return nil
			}
			// Day 1, at the first speech: three fouls for the town player
			// who speaks last today (they lose this day's speech). Day 2:
			// four fouls for another town player (removed).
			if st.Round == 1 && foulA == 0 {
				q := st.Queue
				for i := len(q) - 1; i >= 0; i-- {
					if !bad(st, q[i]) {
						foulA = q[i]
						break
					}
				}
			}
			if st.Round == 2 && foulB == 0 {
				for _, s := range st.Queue {
					if !bad(st, s) && s != foulA && alive(st, s) {
						foulB = s
						break
					}
				}
			}
			switch {
			case st.Round == 1 && fouled[foulA] < 3:
				fouled[foulA]++
				return []int{foulA}
			case st.Round == 2 && foulB != 0 && fouled[foulB] < 4 && alive(st, foulB):
				fouled[foulB]++
				return []int{foulB}
			}
			return nil
		},
		Each: func(screen string, st record.State) {
			key := fmt.Sprintf("%s-%d", screen, st.Round)
			if strings.HasPrefix(screen, "wake:") && st.Round == 1 && !shotsTaken[key] {
				shotsTaken[key] = true
				h.Shot("game11-night1-" + strings.TrimPrefix(screen, "wake:"))
			}
			if (screen == "vote" || screen == "revote" || screen == "all_vote") && !shotsTaken[key] {
				shotsTaken[key] = true
				h.Shot("game11-" + key)
			}
			if screen == "speech" && !timerChecked {
				timerChecked = true
				h.CheckClock()
				h.Shot("game11-speech-clock")
			}
		},
	}
	_ = st
	entered := h.Play(d)
	h.Shot("game11-result")
	h.Tap("home")
	h.WaitJS(10*time.Second, `!!document.querySelector('[data-t="history"] tr[data-id="`+id+`"]')`)
	h.Shot("game11-home-history")
	h.Do(10*time.Second, hosttest.Navigate(ts.URL+"/host/#/game/"+id))
	h.WaitJS(10*time.Second, `!!document.querySelector('[data-t="result"]')`)

	// The result on the page is the server's engine's.
	h.WaitJS(30*time.Second, `document.getElementById('sync').dataset.waiting === '0'`)
	g, log := ts.Replay(t, id)
	if !g.Ended() {
		t.Fatal("the server's game has not ended")
	}
	if got := hosttest.Eval[string](h.Tab, `document.querySelector('[data-t="result"]').dataset.winner`); got != g.Winner().String() {
		t.Fatalf("the page shows %q, the server's engine %q", got, g.Winner())
	}
	if foulA == 0 || foulB == 0 {
		t.Fatalf("the fouls were not given (%d, %d)", foulA, foulB)
	}

	// The protocol: the events are the engine's log, and every vote is there.
	p := ts.Protocol(t, h, id)
	hosttest.CheckLog(t, p.Events, log)
	pageLog := hosttest.Eval[string](h.Tab, `JSON.stringify(JSON.parse(window.mafiaAssist.protocol()).events)`)
	var browser []wire.Event
	if err := json.Unmarshal([]byte(pageLog), &browser); err != nil {
		t.Fatal(err)
	}
	hosttest.CheckLog(t, browser, log)
	checkVotes(t, p, entered)
	checkFouls(t, p, foulA, foulB)
	rounds := 0
	ties := 0
	for _, r := range p.Rounds {
		if r.Day != nil {
			rounds++
			for _, v := range r.Day.Votes {
				if v.Tie != nil {
					ties++
				}
			}
		}
	}
	if ties < 2 {
		t.Errorf("want a tie and a tied repeat vote, got %d ties", ties)
	}
	t.Logf("%s after %d days; %d vote rounds entered; %d wakes of cards out of the game", p.Winner, rounds, len(entered), h.DeadWakes)
	if h.DeadWakes == 0 {
		t.Error("no card out of the game was woken")
	}

	// CSV: one row per event, and one per counted ballot.
	rows := ts.Csv(t, h, id)
	ballots := 0
	for _, r := range p.Rounds {
		if r.Day != nil {
			for _, v := range r.Day.Votes {
				ballots += len(v.Ballot)
			}
		}
	}
	if len(rows) != 1+len(log)+ballots {
		t.Errorf("CSV has %d rows, want 1 + %d events + %d ballots", len(rows), len(log), ballots)
	}

	// The printable page, and the club's history.
	h.PrintPage(id, "game11-protocol")
	var list struct{ Games []struct{ ID, Winner string } }
	ts.GetJSON(t, "/host/api/games", h.Token(id), &list) // listed to its host
	if len(list.Games) != 1 || list.Games[0].ID != id || list.Games[0].Winner != g.Winner().String() {
		t.Errorf("history: %+v", list)
	}
}

// checkVotes checks every entered vote round against the protocol.
func checkVotes(t *testing.T, p *hosttest.Exported, entered []hosttest.Votes) {
	t.Helper()
	var rounds []record.VoteRound
	var alls []*record.AllVote
	for _, r := range p.Rounds {
		if r.Day == nil {
			continue
		}
		rounds = append(rounds, r.Day.Votes...)
		if r.Day.AllVote != nil {
			alls = append(alls, r.Day.AllVote)
		}
	}
	vi, ai := 0, 0
	for _, e := range entered {
		if e.Phase == "all_vote" {
			if ai >= len(alls) || !slices.Equal(hosttest.Sorted(alls[ai].Yes), hosttest.Sorted(e.AllYes)) {
				t.Fatalf("all-vote %d: entered yes %v, protocol %+v", ai, e.AllYes, alls)
			}
			ai++
			continue
		}
		if vi >= len(rounds) {
			t.Fatalf("vote %d is missing from the protocol", vi)
		}
		v := rounds[vi]
		vi++
		if v.Phase != e.Phase || !slices.Equal(v.Candidates, e.Candidates) {
			t.Fatalf("vote %d: protocol %s %v, entered %s %v", vi, v.Phase, v.Candidates, e.Phase, e.Candidates)
		}
		last := e.Candidates[len(e.Candidates)-1]
		counted := map[int]record.Ballot{}
		for _, b := range v.Ballot {
			counted[b.Voter] = b
		}
		tapped := map[int]bool{}
		for c, hands := range e.Hands {
			for _, s := range hands {
				tapped[s] = true
				if b := counted[s]; b.Candidate != c || b.Abstained {
					t.Errorf("vote %d: %d raised a hand for %d; the protocol counts %+v", vi, s, c, b)
				}
			}
		}
		for s, b := range counted {
			if !tapped[s] && (b.Candidate != last || !b.Abstained) {
				t.Errorf("vote %d: %d raised no hand; the protocol counts %+v, want the last candidate %d", vi, s, b, last)
			}
		}
	}
	if vi != len(rounds) || ai != len(alls) {
		t.Fatalf("the protocol has %d votes and %d all-votes, %d and %d were entered", len(rounds), len(alls), vi, ai)
	}
}

func checkFouls(t *testing.T, p *hosttest.Exported, lose, removed int) {
	t.Helper()
	if p.Seats[lose-1].Fouls != 3 {
		t.Errorf("seat %d has %d fouls in the protocol, want 3", lose, p.Seats[lose-1].Fouls)
	}
	lost := false
	for _, r := range p.Rounds {
		if r.Day != nil && slices.Contains(r.Day.LostSpeech, lose) {
			lost = true
		}
	}
	if !lost {
		t.Errorf("seat %d did not lose a speech", lose)
	}
	if o := p.Seats[removed-1].Out; o == nil || o.Cause != "fouls" {
		t.Errorf("seat %d was not removed for fouls: %+v", removed, o)
	}
}
