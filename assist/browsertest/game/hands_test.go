package game

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// TestARaisedHandForTheLastCandidateIsAVote votes on day 1 between two
// candidates, the host tapping a hand raised for the last one: the
// protocol and the CSV count it as that voter's vote, not an abstention,
// and mark as abstained only the voters who raised no hand.
func TestARaisedHandForTheLastCandidateIsAVote(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	h := hosttest.OpenHost(t, ts, "host")
	id := h.Create(hosttest.GameSpec{Names: hosttest.Names11[:7], Roles: hosttest.Roles7, Deal: record.DealManual})
	d := hosttest.Driver{
		Night: func(st record.State, w record.Wake) int {
			if w.Role == "mafia" {
				return 7
			}
			return 0
		},
		Nominate: func(st record.State) int {
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
		Stop: func(st record.State) bool { return st.Phase == "vote" },
	}
	h.Play(d)
	st := h.State()
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
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="candidate"][data-seat="`+strconv.Itoa(first)+`"]')`)
	h.PickSeat(forFirst)
	h.Tap("confirm-hands")
	h.Settle()
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="candidate"][data-seat="`+strconv.Itoa(last)+`"]')`)
	h.PickSeat(forLast)
	h.WaitJS(5*time.Second, `document.querySelector('[data-t="hands"]').textContent === '1'`)
	h.Shot("hands-last-candidate")
	h.Tap("close-vote")
	h.Settle()
	h.WaitJS(hosttest.SyncWait, `window.__assistGame.syncer.waiting() === 0`)

	p := ts.Protocol(t, h, id)
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
	if !slices.Equal(hosttest.Sorted(abstained), hosttest.Sorted(want)) {
		t.Errorf("abstained: %v, want %v", abstained, want)
	}
	rows := ts.Csv(t, h, id)
	for _, r := range rows {
		if r[4] == "ballot" && r[5] == strconv.Itoa(forLast) && r[16] != "no" {
			t.Errorf("the CSV marks the hand raised for the last candidate as abstained: %v", r)
		}
	}
}
