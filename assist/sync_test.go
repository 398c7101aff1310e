package assist_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"mafia/assist"
	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/engine"
	"mafia/store"
	"mafia/store/sqlite"
	"mafia/wire"
)

func TestSyncAppliesEachEntryOnceAndInOrder(t *testing.T) {
	ts := hosttest.StartServer(t)
	c := hosttest.Create7(t, ts, record.DealManual)
	start := len(hosttest.StoredEvents(t, ts, c.ID))
	if start != 2 {
		t.Fatalf("a new game stores %d events, want GameStarted and NightBegan", start)
	}
	batch := hosttest.Entries(0, hosttest.Kill7, hosttest.Next, hosttest.Next)
	code, a := hosttest.SyncUp(t, ts, c, batch...)
	if code != 200 || a.Applied != 3 {
		t.Fatalf("first sync: %d %+v", code, a)
	}
	after := len(hosttest.StoredEvents(t, ts, c.ID))
	if after != a.Events {
		t.Fatalf("the store holds %d events, the answer says %d", after, a.Events)
	}
	// The same batch again (its answer was lost): nothing changes.
	code, b := hosttest.SyncUp(t, ts, c, batch...)
	if code != 200 || b.Applied != 3 || b.Events != a.Events || len(hosttest.StoredEvents(t, ts, c.ID)) != after {
		t.Fatalf("repeat: %d %+v, %d events stored", code, b, len(hosttest.StoredEvents(t, ts, c.ID)))
	}
	// A batch that overlaps: only the new entry is applied.
	more := hosttest.Entries(0, hosttest.Kill7, hosttest.Next, hosttest.Next, engine.Command{Verb: engine.Nominate, By: 1, Target: 4})
	code, m := hosttest.SyncUp(t, ts, c, more[2:]...)
	if code != 200 || m.Applied != 4 {
		t.Fatalf("overlap: %d %+v", code, m)
	}
	g, err := engine.Replay(hosttest.StoredEvents(t, ts, c.ID))
	if err != nil {
		t.Fatal(err)
	}
	if cands := g.Candidates(); len(cands) != 1 || cands[0] != 4 {
		t.Fatalf("candidates %v", cands)
	}
}

func TestSyncRefusesOutOfOrderAndAnotherPhonesEntries(t *testing.T) {
	ts := hosttest.StartServer(t)
	c := hosttest.Create7(t, ts, record.DealManual)
	hosttest.SyncUp(t, ts, c, hosttest.Entries(0, hosttest.Kill7)...)
	// A gap: entry 3 before entry 1.
	code, a := hosttest.SyncUp(t, ts, c, hosttest.Entries(3, hosttest.Next)...)
	if code != http.StatusConflict || a.Error == nil || a.Error.Code != "out_of_order" || a.Applied != 1 {
		t.Fatalf("gap: %d %+v", code, a)
	}
	// Another entry at a place the server holds.
	other := hosttest.Entries(0, hosttest.Next)
	other[0].ID = "another-phone"
	code, a = hosttest.SyncUp(t, ts, c, other...)
	if code != http.StatusConflict || a.Error == nil || a.Error.Code != "diverged" {
		t.Fatalf("diverged: %d %+v", code, a)
	}
	if n := len(hosttest.StoredEvents(t, ts, c.ID)); n != 3 {
		t.Fatalf("%d events stored, want 3", n)
	}
}

func TestSyncRefusesWhatTheEngineRefusesWithItsCodeAndSentence(t *testing.T) {
	ts := hosttest.StartServer(t)
	c := hosttest.Create7(t, ts, record.DealManual)
	// The doctor heals 1, then tries to heal again: the second is refused,
	// the first is kept.
	batch := hosttest.Entries(0, engine.Command{Verb: engine.Heal, By: 6, Target: 1}, engine.Command{Verb: engine.Heal, By: 6, Target: 2})
	var a hosttest.SyncAnswer
	code := hosttest.Call(t, "POST", ts.URL+"/host/api/games/"+c.ID+"/sync?lang=ru", c.HostToken, map[string]any{"commands": batch}, &a)
	if code != http.StatusBadRequest || a.Error == nil || a.Error.Code != string(engine.CodeAlreadyActed) || a.Applied != 1 {
		t.Fatalf("%d %+v", code, a)
	}
	if !strings.Contains(a.Error.Message, "уже") {
		t.Errorf("the refusal is not the engine's Russian sentence: %q", a.Error.Message)
	}
	// The mafia may not choose its own: target_is_mafia.
	code, a = hosttest.SyncUp(t, ts, c, hosttest.Entries(1, engine.Command{Verb: engine.Kill, By: 2, Target: 4})...)
	if code != http.StatusBadRequest || a.Error.Code != string(engine.CodeTargetIsMafia) {
		t.Fatalf("%d %+v", code, a)
	}
	// An unknown verb, and a foreign token.
	code, a = hosttest.SyncUp(t, ts, c, record.Command{ID: "z", Seq: 1, Verb: "dance"})
	if code != http.StatusBadRequest || a.Error.Code != string(engine.CodeUnknownVerb) {
		t.Fatalf("%d %+v", code, a)
	}
	var e hosttest.SyncAnswer
	if code := hosttest.Call(t, "POST", ts.URL+"/host/api/games/"+c.ID+"/sync", "not-the-token", map[string]any{"commands": hosttest.Entries(1, hosttest.Kill7)}, &e); code != http.StatusForbidden || e.Error.Code != "bad_token" {
		t.Fatalf("foreign token: %d %+v", code, e)
	}
}

func TestProtocolIsTheStoredLogAndCSVHasEveryBallot(t *testing.T) {
	ts := hosttest.StartServer(t)
	c := hosttest.Create7(t, ts, record.DealManual)
	list := hosttest.PlayTie(t, ts, c)
	log := hosttest.StoredEvents(t, ts, c.ID)
	_, replayed, err := record.Replay(&c.Settings, list)
	if err != nil {
		t.Fatal(err)
	}
	var p hosttest.Exported
	if code := hosttest.Call(t, "GET", ts.URL+"/host/api/games/"+c.ID+"/protocol.json", c.HostToken, nil, &p); code != 200 {
		t.Fatalf("protocol: %d", code)
	}
	hosttest.CheckLog(t, p.Events, log)
	hosttest.CheckLog(t, p.Events, replayed)
	if p.ID != c.ID || p.Seats[0].Name != "A" || p.Seats[1].Role != "don" {
		t.Errorf("protocol header: %+v", p.Seats[:2])
	}
	day := p.Rounds[0].Day
	if len(day.Votes) != 2 || day.AllVote == nil || !day.AllVote.Passed {
		t.Fatalf("day 1: %+v", day)
	}
	rows := ts.CsvWith(t, c.ID, c.HostToken)
	if rows[0][1] != "No." || len(rows) != 1+len(log)+12 {
		t.Fatalf("CSV: %d rows for %d events", len(rows), len(log))
	}
}

func TestTheProtocolIsTheHostsUntilTheGameEnds(t *testing.T) {
	ts := hosttest.StartServer(t)
	c := hosttest.Create7(t, ts, record.DealManual)
	for _, path := range []string{"/protocol.json", "/protocol.csv"} {
		if code := hosttest.Call(t, "GET", ts.URL+"/host/api/games/"+c.ID+path, "", nil, nil); code != http.StatusForbidden {
			t.Errorf("%s of a running game without the token: %d", path, code)
		}
	}
	res, _ := http.Get(ts.URL + "/host/games/" + c.ID)
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("the printable page of a running game: %d", res.StatusCode)
	}
	res.Body.Close()
	// The host removes both mafiosi by fouls (foul_limit 4): the town wins.
	var cmds []engine.Command
	for range 4 {
		cmds = append(cmds, engine.Command{Verb: engine.Foul, Target: 2})
	}
	for range 4 {
		cmds = append(cmds, engine.Command{Verb: engine.Foul, Target: 4})
	}
	code, a := hosttest.SyncUp(t, ts, c, hosttest.Entries(0, cmds...)...)
	if code != 200 || !a.Ended || a.Winner != "town" {
		t.Fatalf("%d %+v", code, a)
	}
	if code := hosttest.Call(t, "GET", ts.URL+"/host/api/games/"+c.ID+"/protocol.json", "", nil, nil); code != 200 {
		t.Errorf("the protocol of a finished game: %d", code)
	}
	res, _ = http.Get(ts.URL + "/host/games/" + c.ID + "?lang=ka")
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), "მოქალაქეებმა გაიმარჯვეს") {
		t.Errorf("the printable page in Georgian: %d", res.StatusCode)
	}
	var list struct{ Games []assist.Summary }
	hosttest.Call(t, "GET", ts.URL+"/host/api/games", c.HostToken, nil, &list) // listed to its host
	if len(list.Games) != 1 || !list.Games[0].Ended || list.Games[0].Winner != "town" || list.Games[0].Players != 7 {
		t.Errorf("history: %+v", list.Games)
	}
	tbl, _, _ := ts.DB.Table(context.Background(), store.KindInPerson, c.ID)
	if tbl.Status != assist.StatusEnded || tbl.Winner != "town" {
		t.Errorf("stored table: %s %s", tbl.Status, tbl.Winner)
	}
}

func TestCreateRefusesBadSettingsInTheHostsLanguage(t *testing.T) {
	ts := hosttest.StartServer(t)
	for _, c := range []struct {
		body map[string]any
		code string
	}{
		{map[string]any{"names": []string{"A", "B"}, "deal": "pass"}, "too_few_seats"},
		{map[string]any{"names": []string{"A", "B", "C", "D", "E", "F", "G"}, "deal": "manual", "roles": []string{"citizen"}}, "bad_settings"},
		{map[string]any{"names": []string{"A", "B", "C", "D", "E", "F", "G"}, "deal": "pass", "options": map[string]string{"mafia_kill": "all"}}, "bad_option_value"},
		{map[string]any{"names": []string{"A", "", "C", "D", "E", "F", "G"}, "deal": "pass"}, "bad_settings"},
		{map[string]any{"names": []string{"A", "B", "C", "D", "E", "F", "G"}, "deal": "telepathy"}, "bad_settings"},
		{map[string]any{"names": []string{"A", "B", "C", "D", "E", "F", "G"}, "deal": "links",
			"setup": map[string]int{"don": 1, "mafia": 3, "citizen": 3}}, "mafia_majority"},
	} {
		var a hosttest.SyncAnswer
		code := hosttest.Call(t, "POST", ts.URL+"/host/api/games?lang=ka", "", c.body, &a)
		if code != http.StatusBadRequest || a.Error == nil || a.Error.Code != c.code || a.Error.Message == "" {
			t.Errorf("%v: %d %+v, want %s", c.body, code, a.Error, c.code)
		}
	}
}

func TestACardLinkOpensOnlyItsCard(t *testing.T) {
	ts := hosttest.StartServer(t)
	c := hosttest.Create7(t, ts, record.DealLinks)
	if len(c.Cards) != 7 || !strings.HasPrefix(c.Cards[2].URL, "/host/card/"+c.ID+"/3#") {
		t.Fatalf("cards: %+v", c.Cards)
	}
	var card struct {
		Seat       int
		Name, Role string
		RoleName   string `json:"role_name"`
	}
	if code := hosttest.Call(t, "GET", ts.URL+"/host/api/games/"+c.ID+"/cards/3?lang=ru", c.Cards[2].Token, nil, &card); code != 200 {
		t.Fatalf("card 3: %d", code)
	}
	if card.Seat != 3 || card.Name != "C" || card.Role != c.Settings.Roles[2] || card.RoleName == "" {
		t.Errorf("card 3: %+v", card)
	}
	if code := hosttest.Call(t, "GET", ts.URL+"/host/api/games/"+c.ID+"/cards/4", c.Cards[2].Token, nil, nil); code != http.StatusForbidden {
		t.Errorf("seat 3's token opened seat 4: %d", code)
	}
	var seen struct{ Viewed []int }
	hosttest.Call(t, "GET", ts.URL+"/host/api/games/"+c.ID+"/cards", c.HostToken, nil, &seen)
	if len(seen.Viewed) != 1 || seen.Viewed[0] != 3 {
		t.Errorf("viewed: %v", seen.Viewed)
	}
}

// failingStore fails the next AppendEvents, as a server that stops between
// saving the entries and appending their events would.
type failingStore struct {
	assist.Store
	fail bool
}

func (f *failingStore) AppendEvents(ctx context.Context, id string, first int, evs []engine.Event) error {
	if f.fail {
		f.fail = false
		return fmt.Errorf("disk full")
	}
	return f.Store.AppendEvents(ctx, id, first, evs)
}

func TestAnEntrySavedWithoutItsEventsIsRecovered(t *testing.T) {
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	fs := &failingStore{Store: db}
	ts := &hosttest.Server{DB: db, H: assist.New(assist.Config{Store: fs})}
	hs := hosttest.HttptestServer(t, ts)
	ts.URL = hs
	c := hosttest.Create7(t, ts, record.DealManual)
	fs.fail = true
	batch := hosttest.Entries(0, hosttest.Kill7, hosttest.Next)
	if code, _ := hosttest.SyncUp(t, ts, c, batch...); code != http.StatusInternalServerError {
		t.Fatalf("a failed append answers %d", code)
	}
	// The phone sends the same entries again; the server rebuilds the game
	// from the store, appends the missing events, and takes the repeat as
	// a repeat.
	code, a := hosttest.SyncUp(t, ts, c, batch...)
	if code != 200 || a.Applied != 2 {
		t.Fatalf("%d %+v", code, a)
	}
	log := hosttest.StoredEvents(t, ts, c.ID)
	_, want, _ := record.Replay(&c.Settings, batch)
	ws := make([]wire.Event, len(log))
	for i, e := range log {
		ws[i] = wire.FromEvent(e, 7)
	}
	hosttest.CheckLog(t, ws, want)
	// A fresh handler on the same store (a restarted server) agrees.
	ts.H = assist.New(assist.Config{Store: db})
	if code, a := hosttest.SyncUp(t, ts, c, batch...); code != 200 || a.Events != len(want) {
		t.Fatalf("after a restart: %d %+v", code, a)
	}
}

func TestConcurrentRepeatsOfABatchApplyItOnce(t *testing.T) {
	ts := hosttest.StartServer(t)
	c := hosttest.Create7(t, ts, record.DealManual)
	batch := hosttest.Entries(0, hosttest.Kill7, hosttest.Next, hosttest.Next, engine.Command{Verb: engine.Nominate, By: 1, Target: 4})
	done := make(chan hosttest.SyncAnswer, 8)
	body, _ := json.Marshal(map[string]any{"commands": batch})
	for range 8 {
		go func() {
			var a hosttest.SyncAnswer
			req, _ := http.NewRequest("POST", ts.URL+"/host/api/games/"+c.ID+"/sync", bytes.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+c.HostToken)
			if res, err := http.DefaultClient.Do(req); err == nil {
				_ = json.NewDecoder(res.Body).Decode(&a)
				res.Body.Close()
			}
			done <- a
		}()
	}
	for range 8 {
		if a := <-done; a.Applied != len(batch) || a.Error != nil {
			t.Errorf("an answer: %+v", a)
		}
	}
	_, want, _ := record.Replay(&c.Settings, batch)
	if got := len(hosttest.StoredEvents(t, ts, c.ID)); got != len(want) {
		t.Fatalf("%d events stored, want %d", got, len(want))
	}
	if got := len(ts.StoredEntries(t, c.ID)); got != len(batch) {
		t.Fatalf("%d entries stored, want %d", got, len(batch))
	}
}

// TestSyncRefusesAnEntryForAStepThatHasPassed: an entry carries the step
// the host's screen was drawn for; a second "end" for the same speech (a
// double tap that reached the server) is refused with stale_step and
// changes nothing, and the entries before it are kept.
func TestSyncRefusesAnEntryForAStepThatHasPassed(t *testing.T) {
	ts := hosttest.StartServer(t)
	c := hosttest.Create7(t, ts, record.DealManual)
	night := hosttest.Entries(0, hosttest.Kill7, hosttest.Next) // night 1 is step 1
	night[0].Step, night[1].Step = 1, 1
	if code, a := hosttest.SyncUp(t, ts, c, night...); code != 200 || a.Applied != 2 {
		t.Fatalf("night: %d %+v", code, a)
	}
	ends := hosttest.Entries(2, hosttest.Next, hosttest.Next)
	ends[0].Step, ends[1].Step = 2, 2 // both drawn for the morning's first step
	before := len(hosttest.StoredEvents(t, ts, c.ID))
	code, a := hosttest.SyncUp(t, ts, c, ends...)
	if code != http.StatusConflict || a.Error == nil || a.Error.Code != string(record.CodeStaleStep) || a.Error.Message == "" || a.Applied != 3 {
		t.Fatalf("a second end for the same speech: %d %+v", code, a)
	}
	g, err := engine.Replay(hosttest.StoredEvents(t, ts, c.ID))
	if err != nil {
		t.Fatal(err)
	}
	once, _, err := record.Replay(&c.Settings, append(night, ends[0]))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(ts.StoredEntries(t, c.ID)); n != 3 || hosttest.AtOf(g) != hosttest.AtOf(once) || len(hosttest.StoredEvents(t, ts, c.ID)) == before {
		t.Fatalf("after the refusal: %d entries, the game at %+v, want %+v after one end", n, hosttest.AtOf(g), hosttest.AtOf(once))
	}
}
