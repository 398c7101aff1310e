package assist_test

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"mafia/assist/record"
)

// TestARaisedHandForTheLastCandidateIsAVote votes on day 1 between two
// candidates, the host tapping a hand raised for the last one: the
// protocol and the CSV count it as that voter's vote, not an abstention,
// and mark as abstained only the voters who raised no hand.
func TestARaisedHandForTheLastCandidateIsAVote(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	h := openHost(t, ts, "host")
	id := h.create(gameSpec{Names: names11[:7], Roles: roles7, Deal: record.DealManual})
	d := driver{
		night: func(st record.State, w record.Wake) int {
			if w.Role == "mafia" {
				return 7
			}
			return 0
		},
		nominate: func(st record.State) int {
			if len(st.Candidates) >= 2 {
				return 0
			}
			for _, s := range st.Nominate {
				if s != st.Speaker {
					return s
				}
			}
			return 0
		},
		stop: func(st record.State) bool { return st.Phase == "vote" },
	}
	h.play(d)
	st := h.state()
	first, last := st.Candidates[0], st.Candidates[1]
	// One hand for the first candidate; one raised for the last; the rest raise none.
	var forFirst, forLast int
	for _, s := range st.Pending {
		if s != first && s != last {
			if forFirst == 0 {
				forFirst = s
			} else if forLast == 0 {
				forLast = s
			}
		}
	}
	h.waitJS(5*time.Second, `!!document.querySelector('[data-t="candidate"][data-seat="`+strconv.Itoa(first)+`"]')`)
	h.pickSeat(forFirst)
	h.tap("confirm-hands")
	h.settle()
	h.waitJS(5*time.Second, `!!document.querySelector('[data-t="candidate"][data-seat="`+strconv.Itoa(last)+`"]')`)
	h.pickSeat(forLast)
	h.waitJS(5*time.Second, `document.querySelector('[data-t="hands"]').textContent === '1'`)
	h.shot("hands-last-candidate")
	h.tap("close-vote")
	h.settle()
	h.waitJS(syncWait, `window.__assistGame.syncer.waiting() === 0`)

	p := ts.protocol(t, h, id)
	v := p.Rounds[0].Day.Votes[0]
	var abstained []int
	for _, b := range v.Ballot {
		if b.Voter == forLast && (b.Abstained || b.Candidate != last) {
			t.Errorf("the hand raised for the last candidate is recorded as %+v", b)
		}
		if b.Abstained {
			abstained = append(abstained, b.Voter)
		}
	}
	var want []int
	for _, s := range st.Pending {
		if s != forFirst && s != forLast {
			want = append(want, s)
		}
	}
	if !slices.Equal(sorted(abstained), sorted(want)) {
		t.Errorf("abstained: %v, want %v", abstained, want)
	}
	rows := ts.csv(t, h, id)
	for _, r := range rows {
		if r[4] == "ballot" && r[5] == strconv.Itoa(forLast) && r[16] != "no" {
			t.Errorf("the CSV marks the hand raised for the last candidate as abstained: %v", r)
		}
	}
}
