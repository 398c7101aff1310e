package game

import (
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// inForce applies the undo entries to a list the simple way (each undo
// drops the entries from the place it names on) and returns the entries
// left, without undos: the corrected game's entries.
func inForce(list []record.Command) []record.Command {
	var out []record.Command
	for _, c := range list {
		if c.Verb != record.VerbUndo {
			out = append(out, c)
			continue
		}
		for len(out) > 0 && out[len(out)-1].Seq >= c.Undo {
			out = out[:len(out)-1]
		}
	}
	return out
}

// TestTheHostTakesBackWrongEntries plays a 7-player game in which the host
// mis-taps five times and takes each back: a heal on the wrong seat, a
// wrong nominee (while the phone is offline), the hands for a candidate, a
// foul on the wrong seat, and the entry that ended the game. Each undo
// names what it takes back and brings the screen back to before it; the
// game then goes on to the end; the server's protocol is the engine's log
// of the corrected game, with the corrections listed.
func TestTheHostTakesBackWrongEntries(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	h := hosttest.OpenHost(t, ts, "host")
	names := []string{"Nino", "Giorgi", "Tamar", "Levan", "Ana", "Dato", "Eka"}
	id := h.Create(hosttest.GameSpec{Names: names, Deal: record.DealManual, Roles: hosttest.Roles7})
	// At the deal there is nothing to take back: the page says so.
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="wake"]')`)
	h.Tap("undo")
	h.WaitJS(5*time.Second, `(document.getElementById('toast') || {}).textContent === "There is nothing to take back: the game stands at the deal."`)
	if n := hosttest.Eval[int](h.Tab, `window.__assistGame.rec.commands.length`); n != 0 || h.Exists("confirm-undo") {
		t.Fatalf("an undo at the deal made %d entries", n)
	}

	bad := func(st record.State, s int) bool { return st.Roles[s] == "mafia" || st.Roles[s] == "don" }
	done := map[string]bool{}
	undos := 0
	d := hosttest.TownDriver()
	d.Nominate = func(st record.State) int {
		if len(st.Candidates) >= 2 {
			return 0
		}
		for _, s := range st.Nominate {
			if bad(st, s) == (len(st.Candidates) == 0) {
				return s
			}
		}
		return 0
	}
	d.Each = func(screen string, st record.State) {
		switch {
		case screen == "wake:doctor" && !done["heal"]:
			// The doctor heals the wrong seat; the host takes it back.
			done["heal"] = true
			w := st.Night.Wakes[len(st.Night.Wakes)-1]
			wrong := w.Targets[len(w.Targets)-1]
			h.PickSeat(wrong)
			h.Tap("confirm")
			h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="morning"]')`)
			lines := h.UndoLast(false)
			if !strings.Contains(strings.Join(lines, " "), strconv.Itoa(wrong)) {
				t.Errorf("the confirmation does not name seat %d: %q", wrong, lines)
			}
			undos++
			if h.Screen() != "wake:doctor" {
				t.Fatalf("after the undo the screen is %s", h.Screen())
			}
			if now := h.State(); now.Night.Wakes[len(now.Night.Wakes)-1].Acted {
				t.Fatal("the heal is still entered after the undo")
			}
		case screen == "speech" && !done["nominate"]:
			// Offline: a wrong nominee, taken back from the menu.
			done["nominate"] = true
			h.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0'`)
			h.Offline(true)
			h.Tap("nominate")
			h.PickSeat(st.Nominate[len(st.Nominate)-1])
			h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="nominated"]')`)
			h.UndoLast(true)
			undos++
			if now := h.State(); now.Nominated || len(now.Candidates) != 0 || h.Screen() != "speech" {
				t.Fatalf("after the undo: nominated %v, candidates %v, screen %s", now.Nominated, now.Candidates, h.Screen())
			}
			h.WaitJS(5*time.Second, `document.getElementById('sync').dataset.waiting === '2'`)
		case screen == "vote" && !done["hands"]:
			// The connection is back; the hands for the first candidate
			// are taken back and counted again.
			done["hands"] = true
			h.Offline(false)
			c := st.Candidates[0]
			h.PickSeat(st.Pending[0])
			h.PickSeat(st.Pending[1])
			h.Tap("confirm-hands")
			h.Settle()
			h.UndoLast(false)
			undos++
			now := h.State()
			if !slices.Equal(now.Pending, st.Pending) || !h.Exists(`candidate"][data-seat="`+strconv.Itoa(c)) {
				t.Fatalf("after the undo: pending %v (before %v):\n%s", now.Pending, st.Pending, h.Text())
			}
		case (screen == "defence" || screen == "last_words") && !done["foul"]:
			done["foul"] = true
			s := st.Alive[0]
			h.GiveFoul(s)
			if h.State().Fouls[s] != 1 {
				t.Fatal("the foul was not given")
			}
			h.UndoLast(false)
			undos++
			if h.State().Fouls[s] != 0 {
				t.Fatal("the foul is still there after the undo")
			}
		}
	}
	h.Play(d)
	for _, k := range []string{"heal", "nominate", "hands", "foul"} {
		if !done[k] {
			t.Fatalf("the game ended before the %s was taken back", k)
		}
	}
	// The game is over; the last entry was wrong after all: take it back.
	result := h.State()
	h.UndoLast(false)
	undos++
	if st := h.State(); st.Phase == "ended" || st.Winner != "" || hosttest.Eval[bool](h.Tab, `!!window.__assistGame.rec.ended`) {
		t.Fatalf("after the undo of the last entry: %s %q", st.Phase, st.Winner)
	}
	h.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0'`)
	if tbl := ts.Status(t, id); tbl.Winner != "" {
		t.Fatalf("the server still has a winner: %+v", tbl)
	}
	if sc := h.Screen(); (sc == "vote" || sc == "revote") && h.Exists("close-vote") {
		h.Tap("close-vote") // the undone close: the screen is back at the last candidate
		h.Settle()
	}
	h.Play(d) // the same entries again
	if st := h.State(); st.Winner != result.Winner {
		t.Fatalf("the game ended with %q, before the undo %q", st.Winner, result.Winner)
	}
	h.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0'`)
	h.Shot("undo-result")

	local, stored := h.LocalEntries(id), ts.StoredEntries(t, id)
	if len(local) != len(stored) {
		t.Fatalf("the phone holds %d entries, the server %d", len(local), len(stored))
	}
	n := 0
	for i := range local {
		if local[i].ID != stored[i].ID {
			t.Fatalf("entry %d: phone %+v, server %+v", i, local[i], stored[i])
		}
		if local[i].Verb == record.VerbUndo {
			n++
		}
	}
	if n != undos {
		t.Fatalf("%d undo entries stored, %d made", n, undos)
	}
	g, _ := ts.Replay(t, id)
	if !g.Ended() {
		t.Fatal("the server's game has not ended")
	}
	var game struct{ Settings record.Settings }
	ts.GetJSON(t, "/host/api/games/"+id, h.Token(id), &game)
	_, want, err := record.Replay(&game.Settings, inForce(local))
	if err != nil {
		t.Fatal(err)
	}
	p := ts.Protocol(t, h, id)
	hosttest.CheckLog(t, p.Events, want)
	if len(p.Corrections) != undos || p.Undone < undos {
		t.Fatalf("the protocol lists %d corrections of %d entries; %d undos were made", len(p.Corrections), p.Undone, undos)
	}
	rows := ts.Csv(t, h, id)
	undone := 0
	for _, r := range rows {
		if r[4] == "undone" {
			undone++
		}
	}
	if undone != p.Undone {
		t.Fatalf("the CSV has %d undone rows, the protocol says %d", undone, p.Undone)
	}
	res, err := http.Get(ts.URL + "/host/games/" + id + "?lang=ka")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(page), `data-t="corrections"`) || !strings.Contains(string(page), "შესწორებები") {
		t.Fatal("the printable protocol does not list the corrections")
	}
}
