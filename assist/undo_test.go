package assist_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"mafia/assist"
	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/engine"
	"mafia/internal/sqlitetest"
	"mafia/store/sqlite"
	"mafia/wire"
)

// undoOf is the undo entry at place seq that takes back the action whose
// first entry is at place of.
func undoOf(seq, of int) record.Command {
	return record.Command{ID: fmt.Sprintf("undo-%d", seq), Seq: seq, Verb: record.VerbUndo, Undo: of}
}

func foul(s int) engine.Command { return engine.Command{Verb: engine.Foul, Target: engine.Seat(s)} }

// wantLog replays the entries in force, without any undo, through the
// engine: what the server's log must be after the corrections.
func wantLog(t *testing.T, s *record.Settings, cmds ...record.Command) (*engine.Game, []engine.Event) {
	t.Helper()
	g, log, err := record.Replay(s, cmds)
	if err != nil {
		t.Fatal(err)
	}
	return g, log
}

// sameLog compares the stored log with an engine log.
func sameLog(t *testing.T, what string, got, want []engine.Event) {
	t.Helper()
	ws := make([]wire.Event, len(got))
	for i, e := range got {
		ws[i] = wire.FromEvent(e, 7)
	}
	t.Run(what, func(t *testing.T) { hosttest.CheckLog(t, ws, want) })
}

// TestAnUndoTakesBackTheLastActionOnce: a wrong nominee is taken back; the
// undo is applied once however often it is sent; the stored log, the
// protocol and the game are the engine's game of the entries left; the
// corrected game goes on; and a second undo takes back the action before.
func TestAnUndoTakesBackTheLastActionOnce(t *testing.T) {
	ts := hosttest.StartServer(t)
	c := hosttest.Create7(t, ts, record.DealManual)
	wrong := engine.Command{Verb: engine.Nominate, By: 1, Target: 3}
	list := hosttest.Entries(0, hosttest.Kill7, hosttest.Next, hosttest.Next, wrong)
	if code, a := hosttest.SyncUp(t, ts, c, list...); code != 200 || a.Applied != 4 {
		t.Fatalf("%d %+v", code, a)
	}
	before := len(hosttest.StoredEvents(t, ts, c.ID))
	u := undoOf(4, 3)
	batch := append(list, u)
	code, a := hosttest.SyncUp(t, ts, c, batch...)
	if code != 200 || a.Applied != 5 {
		t.Fatalf("undo: %d %+v", code, a)
	}
	_, want := wantLog(t, &c.Settings, list[:3]...)
	got := hosttest.StoredEvents(t, ts, c.ID)
	if len(got) >= before || a.Events != len(want) {
		t.Fatalf("after the undo the store holds %d events (before %d), the answer says %d, want %d", len(got), before, a.Events, len(want))
	}
	sameLog(t, "after the undo", got, want)

	// The same batch again (the answer was lost): nothing changes.
	code, b := hosttest.SyncUp(t, ts, c, batch...)
	if code != 200 || b.Applied != 5 || b.Events != len(want) || len(ts.StoredEntries(t, c.ID)) != 5 {
		t.Fatalf("repeat: %d %+v", code, b)
	}
	sameLog(t, "after the repeat", hosttest.StoredEvents(t, ts, c.ID), want)

	// The right nominee, then the protocol.
	right := engine.Command{Verb: engine.Nominate, By: 1, Target: 4}
	more := hosttest.Entries(5, right)
	if code, a := hosttest.SyncUp(t, ts, c, more...); code != 200 || a.Applied != 6 {
		t.Fatalf("%d %+v", code, a)
	}
	g, want := wantLog(t, &c.Settings, append(list[:3:3], more...)...)
	sameLog(t, "after the right entry", hosttest.StoredEvents(t, ts, c.ID), want)
	if cands := g.Candidates(); len(cands) != 1 || cands[0] != 4 {
		t.Fatalf("candidates %v", cands)
	}
	var p hosttest.Exported
	if code := hosttest.Call(t, "GET", ts.URL+"/host/api/games/"+c.ID+"/protocol.json", c.HostToken, nil, &p); code != 200 {
		t.Fatalf("protocol: %d", code)
	}
	hosttest.CheckLog(t, p.Events, want)
	if p.Undone != 1 || len(p.Corrections) != 1 || p.Corrections[0].Entry != 4 || len(p.Corrections[0].Undone) != 1 ||
		p.Corrections[0].Undone[0].ID != list[3].ID || len(p.Corrections[0].Events) == 0 ||
		p.Corrections[0].Events[0].Kind != "nominated" {
		t.Fatalf("the protocol's corrections: undone %d, %+v", p.Undone, p.Corrections)
	}
	if nom := p.Rounds[0].Day.Nominations; len(nom) != 1 || nom[0].Target != 4 {
		t.Fatalf("the protocol's nominations: %+v", nom)
	}
	ts.Replay(t, c.ID) // the stored entries replay to the stored log
	// The stored log is a whole game by itself: the engine replays it to
	// the same table as the entries left in force.
	fromLog, err := engine.Replay(hosttest.StoredEvents(t, ts, c.ID))
	if err != nil {
		t.Fatalf("engine.Replay of the corrected log: %v", err)
	}
	if a, b := fromLog.HostView(), g.HostView(); a.Phase != b.Phase || a.Speaker != b.Speaker || a.Alive != b.Alive ||
		len(fromLog.Candidates()) != 1 || fromLog.Candidates()[0] != 4 {
		t.Fatalf("engine.Replay of the log: %+v; the entries' game: %+v", a, b)
	}

	// Two undos in a row take back the nominee, then the first speech.
	code, a = hosttest.SyncUp(t, ts, c, undoOf(6, 5), undoOf(7, 2))
	if code != 200 || a.Applied != 8 {
		t.Fatalf("two undos: %d %+v", code, a)
	}
	_, want = wantLog(t, &c.Settings, list[:2]...)
	sameLog(t, "after two undos", hosttest.StoredEvents(t, ts, c.ID), want)

	// The CSV has the corrected game, then a row for each entry taken back.
	rows := ts.CsvWith(t, c.ID, c.HostToken)
	if len(rows) != 1+len(want)+3 {
		t.Fatalf("CSV: %d rows for %d events and 3 entries taken back", len(rows), len(want))
	}
	for i, r := range rows[1+len(want):] {
		if r[4] != "undone" {
			t.Fatalf("CSV row %d after the events: %v", i, r)
		}
	}
	if last := rows[len(rows)-1]; last[0] != c.ID || last[1] != "2" || last[11] != "next" || last[13] != "7" {
		t.Fatalf("the last correction row: %v", last)
	}
	// A restarted server reads the same game.
	ts.H = assist.New(assist.Config{Store: ts.DB})
	if code, a := hosttest.SyncUp(t, ts, c, undoOf(7, 2)); code != 200 || a.Applied != 8 || a.Events != len(want) {
		t.Fatalf("after a restart: %d %+v", code, a)
	}
}

// TestAWrongLastEntryThatEndedTheGameIsTakenBack: the foul that removed the
// last mafioso ended the game; taking it back reopens it (live again, no
// winner, the protocol open), and the game then ends as entered again.
func TestAWrongLastEntryThatEndedTheGameIsTakenBack(t *testing.T) {
	ts := hosttest.StartServer(t)
	c := hosttest.Create7(t, ts, record.DealManual)
	var cmds []engine.Command
	for _, s := range []int{2, 4} { // the Don and the mafioso leave for fouls
		for range 4 {
			cmds = append(cmds, foul(s))
		}
	}
	list := hosttest.Entries(0, cmds...)
	code, a := hosttest.SyncUp(t, ts, c, list...)
	if code != 200 || !a.Ended || a.Winner != "town" {
		t.Fatalf("the game did not end: %d %+v", code, a)
	}
	if st := ts.Status(t, c.ID); st.Status != assist.StatusEnded || st.Winner != "town" {
		t.Fatalf("ended: %+v", st)
	}
	// The whole protocol is public once ended.
	if code := hosttest.Call(t, "GET", ts.URL+"/host/api/games/"+c.ID+"/protocol.json", "", nil, nil); code != 200 {
		t.Fatalf("the protocol of an ended game: %d", code)
	}

	code, a = hosttest.SyncUp(t, ts, c, undoOf(8, 7))
	if code != 200 || a.Ended || a.Winner != "" || a.Applied != 9 {
		t.Fatalf("undo of the last foul: %d %+v", code, a)
	}
	_, want := wantLog(t, &c.Settings, list[:7]...)
	sameLog(t, "reopened", hosttest.StoredEvents(t, ts, c.ID), want)
	if st := ts.Status(t, c.ID); st.Status != assist.StatusLive || st.Winner != "" {
		t.Fatalf("reopened: %+v", st)
	}
	// The game goes on: it is the host's alone again.
	if code := hosttest.Call(t, "GET", ts.URL+"/host/api/games/"+c.ID+"/protocol.json", "", nil, nil); code != http.StatusForbidden {
		t.Fatalf("the protocol of a reopened game without the token: %d", code)
	}
	var p hosttest.Exported
	if code := hosttest.Call(t, "GET", ts.URL+"/host/api/games/"+c.ID+"/protocol.json", c.HostToken, nil, &p); code != 200 || p.Ended || p.Winner != "" {
		t.Fatalf("reopened protocol: %d ended %v %q", code, p.Ended, p.Winner)
	}
	if p.Seats[3].Fouls != 3 || p.Seats[3].Out != nil {
		t.Fatalf("seat 4 after the undo: %+v", p.Seats[3])
	}
	// The foul entered again ends the game again.
	again := hosttest.Entries(9, foul(4))
	code, a = hosttest.SyncUp(t, ts, c, again...)
	if code != 200 || !a.Ended || a.Winner != "town" {
		t.Fatalf("ended again: %d %+v", code, a)
	}
	_, want = wantLog(t, &c.Settings, append(list[:7:7], again...)...)
	sameLog(t, "ended again", hosttest.StoredEvents(t, ts, c.ID), want)
	if st := ts.Status(t, c.ID); st.Status != assist.StatusEnded || st.Winner != "town" {
		t.Fatalf("ended again: %+v", st)
	}
	// The printable page lists the correction.
	res, err := http.Get(ts.URL + "/host/games/" + c.ID + "?lang=en")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(body), `data-t="corrections"`) || !strings.Contains(string(body), "1 entry was taken back during the game.") {
		t.Fatalf("the printable protocol has no corrections:\n%s", body)
	}
}

// TestABadUndoIsRefusedAndChangesNothing: nothing to undo at the deal; an
// undo that names another action than the last (an undo of an undo among
// them); an undo with seats; an entry that claims to continue an action it
// does not follow. Each is refused with its code and a sentence in the
// host's language, and the store is as before.
func TestABadUndoIsRefusedAndChangesNothing(t *testing.T) {
	ts := hosttest.StartServer(t)
	c := hosttest.Create7(t, ts, record.DealManual)
	refused := func(name string, cmd record.Command, status int, code string, word string) {
		t.Helper()
		entriesBefore, eventsBefore := ts.StoredEntries(t, c.ID), hosttest.StoredEvents(t, ts, c.ID)
		var a hosttest.SyncAnswer
		got := hosttest.Call(t, "POST", ts.URL+"/host/api/games/"+c.ID+"/sync?lang=ru", c.HostToken, map[string]any{"commands": []record.Command{cmd}}, &a)
		if got != status || a.Error == nil || a.Error.Code != code || a.Applied != len(entriesBefore) {
			t.Fatalf("%s: %d %+v", name, got, a)
		}
		if !strings.Contains(a.Error.Message, word) {
			t.Errorf("%s: the refusal is not in Russian: %q", name, a.Error.Message)
		}
		if n := len(ts.StoredEntries(t, c.ID)); n != len(entriesBefore) {
			t.Fatalf("%s: %d entries stored, want %d", name, n, len(entriesBefore))
		}
		sameLog(t, name, hosttest.StoredEvents(t, ts, c.ID), eventsBefore)
	}
	refused("nothing to undo", undoOf(0, 0), http.StatusBadRequest, "nothing_to_undo", "нечего")

	list := hosttest.Entries(0, hosttest.Kill7, hosttest.Next, hosttest.Next)
	if code, a := hosttest.SyncUp(t, ts, c, list...); code != 200 || a.Applied != 3 {
		t.Fatalf("%d %+v", code, a)
	}
	refused("not the last", undoOf(3, 1), http.StatusBadRequest, "undo_not_last", "последнюю")
	if code, a := hosttest.SyncUp(t, ts, c, undoOf(3, 2)); code != 200 || a.Applied != 4 {
		t.Fatalf("%d %+v", code, a)
	}
	refused("an undo of an undo", undoOf(4, 3), http.StatusBadRequest, "undo_not_last", "последнюю")
	withSeat := undoOf(4, 1)
	withSeat.By = 3
	refused("an undo with a seat", withSeat, http.StatusBadRequest, "bad_request", "апрос")
	part := hosttest.Entries(4, hosttest.Next)[0]
	part.Part = 1
	refused("a part after an undo", part, http.StatusBadRequest, "bad_request", "апрос")
	// Back to the deal, then nothing is left to undo.
	if code, a := hosttest.SyncUp(t, ts, c, undoOf(4, 1), undoOf(5, 0)); code != 200 || a.Applied != 6 {
		t.Fatalf("%d %+v", code, a)
	}
	_, want := wantLog(t, &c.Settings)
	sameLog(t, "at the deal", hosttest.StoredEvents(t, ts, c.ID), want)
	refused("nothing left", undoOf(6, 0), http.StatusBadRequest, "nothing_to_undo", "нечего")
}

// TestAnActionOfSeveralEntriesIsTakenBackWhole: the hands for a candidate
// are one tap (entries with Part 0, 1, 2); the undo names the first and
// takes back all three.
func TestAnActionOfSeveralEntriesIsTakenBackWhole(t *testing.T) {
	ts := hosttest.StartServer(t)
	c := hosttest.Create7(t, ts, record.DealManual)
	list := hosttest.PlayTie(t, ts, c)[:13] // to the vote: 1 and 2 nominated 4 and 1
	ts2 := hosttest.StartServer(t)
	c2 := hosttest.Create7(t, ts2, record.DealManual)
	if code, a := hosttest.SyncUp(t, ts2, c2, list...); code != 200 || a.Applied != 13 {
		t.Fatalf("%d %+v", code, a)
	}
	v := func(by int) engine.Command { return engine.Command{Verb: engine.Vote, By: engine.Seat(by), Target: 4} }
	hands := hosttest.Entries(13, v(1), v(3), v(5))
	for i := range hands {
		hands[i].Part = i
	}
	if code, a := hosttest.SyncUp(t, ts2, c2, hands...); code != 200 || a.Applied != 16 {
		t.Fatalf("%d %+v", code, a)
	}
	refusedCode, a := hosttest.SyncUp(t, ts2, c2, undoOf(16, 15))
	if refusedCode != http.StatusBadRequest || a.Error.Code != "undo_not_last" {
		t.Fatalf("an undo of part of a tap: %d %+v", refusedCode, a)
	}
	if code, a := hosttest.SyncUp(t, ts2, c2, undoOf(16, 13)); code != 200 || a.Applied != 17 {
		t.Fatalf("%d %+v", code, a)
	}
	_, want := wantLog(t, &c2.Settings, list...)
	sameLog(t, "hands taken back", hosttest.StoredEvents(t, ts2, c2.ID), want)
}

// rewriteFails fails the next RewriteEvents, as a server that stops between
// saving an undo and rewriting the log would.
type rewriteFails struct {
	*sqlite.DB
	fail bool
}

func (f *rewriteFails) RewriteEvents(ctx context.Context, id string, from int, evs []engine.Event) error {
	if f.fail {
		f.fail = false
		return fmt.Errorf("disk full")
	}
	return f.DB.RewriteEvents(ctx, id, from, evs)
}

// rewriteFailing is the assistant on a fresh store whose next rewrite of
// a log fails while fs.fail is set.
func rewriteFailing(t *testing.T) (*hosttest.Server, *rewriteFails) {
	t.Helper()
	db, _ := sqlitetest.New(t)
	fs := &rewriteFails{DB: db}
	ts := &hosttest.Server{DB: db, H: assist.New(assist.Config{Store: fs})}
	ts.URL = hosttest.HttptestServer(t, ts)
	return ts, fs
}

// TestAnUndoSavedWithoutItsRewriteIsRecovered: the undo is in the entries
// but the log was not rewritten; reading the table rewrites it.
func TestAnUndoSavedWithoutItsRewriteIsRecovered(t *testing.T) {
	ts, fs := rewriteFailing(t)
	c := hosttest.Create7(t, ts, record.DealManual)
	list := hosttest.Entries(0, hosttest.Kill7, hosttest.Next)
	hosttest.SyncUp(t, ts, c, list...)
	fs.fail = true
	if code, _ := hosttest.SyncUp(t, ts, c, undoOf(2, 1)); code != http.StatusInternalServerError {
		t.Fatalf("a failed rewrite answers %d", code)
	}
	if code, a := hosttest.SyncUp(t, ts, c, undoOf(2, 1)); code != 200 || a.Applied != 3 {
		t.Fatalf("the repeat: %d %+v", code, a)
	}
	_, want := wantLog(t, &c.Settings, list[:1]...)
	sameLog(t, "recovered", hosttest.StoredEvents(t, ts, c.ID), want)
}
