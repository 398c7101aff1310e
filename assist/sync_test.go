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
	"mafia/assist/record"
	"mafia/engine"
	"mafia/store"
	"mafia/store/sqlite"
	"mafia/wire"
)

// call sends a JSON request and decodes the JSON answer into out (if not nil).
func call(t *testing.T, method, url, token string, body, out any) int {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, url, rd)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %s: %v\n%s", method, url, res.Status, err, b)
		}
	}
	return res.StatusCode
}

type created struct {
	ID        string          `json:"id"`
	HostToken string          `json:"host_token"`
	Settings  record.Settings `json:"settings"`
	Cards     []assist.Card   `json:"cards"`
}

// The deal of the tie scenario (scenario/testdata/examples/04), by hand.
var roles7 = []string{"citizen", "don", "citizen", "mafia", "detective", "doctor", "citizen"}

func create7(t *testing.T, ts *testServer, deal string) created {
	t.Helper()
	req := map[string]any{"names": []string{"A", "B", "C", "D", "E", "F", "G"}, "deal": deal}
	if deal == record.DealManual {
		req["roles"] = roles7
	}
	var c created
	if code := call(t, "POST", ts.URL+"/host/api/games", "", req, &c); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	return c
}

type syncAnswer struct {
	Applied int    `json:"applied"`
	Events  int    `json:"events"`
	Ended   bool   `json:"ended"`
	Winner  string `json:"winner"`
	Error   *struct {
		Code, Message string
	} `json:"error"`
}

func syncUp(t *testing.T, ts *testServer, c created, cmds ...record.Command) (int, syncAnswer) {
	t.Helper()
	var a syncAnswer
	code := call(t, "POST", ts.URL+"/host/api/games/"+c.ID+"/sync", c.HostToken, map[string]any{"commands": cmds}, &a)
	return code, a
}

// entries numbers commands from seq on.
func entries(seq int, cmds ...engine.Command) []record.Command {
	out := make([]record.Command, len(cmds))
	for i, c := range cmds {
		out[i] = record.FromEngine(c)
		out[i].Seq, out[i].ID = seq+i, fmt.Sprintf("id-%d", seq+i)
	}
	return out
}

var (
	kill7 = engine.Command{Verb: engine.Kill, By: 2, Target: 7}
	next  = engine.Command{Verb: engine.Next}
)

func storedEvents(t *testing.T, ts *testServer, id string) []engine.Event {
	t.Helper()
	evs, err := ts.db.Events(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

func TestSyncAppliesEachEntryOnceAndInOrder(t *testing.T) {
	ts := startServer(t)
	c := create7(t, ts, record.DealManual)
	start := len(storedEvents(t, ts, c.ID))
	if start != 2 {
		t.Fatalf("a new game stores %d events, want GameStarted and NightBegan", start)
	}
	batch := entries(0, kill7, next, next)
	code, a := syncUp(t, ts, c, batch...)
	if code != 200 || a.Applied != 3 {
		t.Fatalf("first sync: %d %+v", code, a)
	}
	after := len(storedEvents(t, ts, c.ID))
	if after != a.Events {
		t.Fatalf("the store holds %d events, the answer says %d", after, a.Events)
	}
	// The same batch again (its answer was lost): nothing changes.
	code, b := syncUp(t, ts, c, batch...)
	if code != 200 || b.Applied != 3 || b.Events != a.Events || len(storedEvents(t, ts, c.ID)) != after {
		t.Fatalf("repeat: %d %+v, %d events stored", code, b, len(storedEvents(t, ts, c.ID)))
	}
	// A batch that overlaps: only the new entry is applied.
	more := entries(0, kill7, next, next, engine.Command{Verb: engine.Nominate, By: 1, Target: 4})
	code, m := syncUp(t, ts, c, more[2:]...)
	if code != 200 || m.Applied != 4 {
		t.Fatalf("overlap: %d %+v", code, m)
	}
	g, err := engine.Replay(storedEvents(t, ts, c.ID))
	if err != nil {
		t.Fatal(err)
	}
	if cands := g.Candidates(); len(cands) != 1 || cands[0] != 4 {
		t.Fatalf("candidates %v", cands)
	}
}

func TestSyncRefusesOutOfOrderAndAnotherPhonesEntries(t *testing.T) {
	ts := startServer(t)
	c := create7(t, ts, record.DealManual)
	syncUp(t, ts, c, entries(0, kill7)...)
	// A gap: entry 3 before entry 1.
	code, a := syncUp(t, ts, c, entries(3, next)...)
	if code != http.StatusConflict || a.Error == nil || a.Error.Code != "out_of_order" || a.Applied != 1 {
		t.Fatalf("gap: %d %+v", code, a)
	}
	// Another entry at a place the server holds.
	other := entries(0, next)
	other[0].ID = "another-phone"
	code, a = syncUp(t, ts, c, other...)
	if code != http.StatusConflict || a.Error == nil || a.Error.Code != "diverged" {
		t.Fatalf("diverged: %d %+v", code, a)
	}
	if n := len(storedEvents(t, ts, c.ID)); n != 3 {
		t.Fatalf("%d events stored, want 3", n)
	}
}

func TestSyncRefusesWhatTheEngineRefusesWithItsCodeAndSentence(t *testing.T) {
	ts := startServer(t)
	c := create7(t, ts, record.DealManual)
	// The doctor heals 1, then tries to heal again: the second is refused,
	// the first is kept.
	batch := entries(0, engine.Command{Verb: engine.Heal, By: 6, Target: 1}, engine.Command{Verb: engine.Heal, By: 6, Target: 2})
	var a syncAnswer
	code := call(t, "POST", ts.URL+"/host/api/games/"+c.ID+"/sync?lang=ru", c.HostToken, map[string]any{"commands": batch}, &a)
	if code != http.StatusBadRequest || a.Error == nil || a.Error.Code != string(engine.CodeAlreadyActed) || a.Applied != 1 {
		t.Fatalf("%d %+v", code, a)
	}
	if !strings.Contains(a.Error.Message, "уже") {
		t.Errorf("the refusal is not the engine's Russian sentence: %q", a.Error.Message)
	}
	// The mafia may not choose its own: target_is_mafia.
	code, a = syncUp(t, ts, c, entries(1, engine.Command{Verb: engine.Kill, By: 2, Target: 4})...)
	if code != http.StatusBadRequest || a.Error.Code != string(engine.CodeTargetIsMafia) {
		t.Fatalf("%d %+v", code, a)
	}
	// An unknown verb, and a foreign token.
	code, a = syncUp(t, ts, c, record.Command{ID: "z", Seq: 1, Verb: "dance"})
	if code != http.StatusBadRequest || a.Error.Code != string(engine.CodeUnknownVerb) {
		t.Fatalf("%d %+v", code, a)
	}
	var e syncAnswer
	if code := call(t, "POST", ts.URL+"/host/api/games/"+c.ID+"/sync", "not-the-token", map[string]any{"commands": entries(1, kill7)}, &e); code != http.StatusForbidden || e.Error.Code != "bad_token" {
		t.Fatalf("foreign token: %d %+v", code, e)
	}
}

// playTie plays the tie scenario's entries (scenario/testdata/examples/04) to night 2.
func playTie(t *testing.T, ts *testServer, c created) []record.Command {
	t.Helper()
	v := func(by, target int) engine.Command {
		return engine.Command{Verb: engine.Vote, By: engine.Seat(by), Target: engine.Seat(target)}
	}
	yes := func(by int) engine.Command {
		return engine.Command{Verb: engine.AllVote, By: engine.Seat(by), Yes: true}
	}
	cmds := []engine.Command{kill7, next, next,
		{Verb: engine.Nominate, By: 1, Target: 4}, next, {Verb: engine.Nominate, By: 2, Target: 1}, next, next, next, next, next,
		next, next, v(1, 4), v(3, 4), v(5, 4), v(2, 1), v(4, 1), next, next, next,
		v(1, 4), v(3, 4), v(5, 4), v(2, 1), v(4, 1), v(6, 1), next,
		yes(1), yes(3), yes(5), yes(6), {Verb: engine.AllVote, By: 2}, next, next, next}
	list := entries(0, cmds...)
	if code, a := syncUp(t, ts, c, list...); code != 200 || a.Applied != len(list) {
		t.Fatalf("%d %+v", code, a)
	}
	return list
}

func TestProtocolIsTheStoredLogAndCSVHasEveryBallot(t *testing.T) {
	ts := startServer(t)
	c := create7(t, ts, record.DealManual)
	list := playTie(t, ts, c)
	log := storedEvents(t, ts, c.ID)
	_, replayed, err := record.Replay(&c.Settings, list)
	if err != nil {
		t.Fatal(err)
	}
	var p exported
	if code := call(t, "GET", ts.URL+"/host/api/games/"+c.ID+"/protocol.json", c.HostToken, nil, &p); code != 200 {
		t.Fatalf("protocol: %d", code)
	}
	checkLog(t, p.Events, log)
	checkLog(t, p.Events, replayed)
	if p.ID != c.ID || p.Seats[0].Name != "A" || p.Seats[1].Role != "don" {
		t.Errorf("protocol header: %+v", p.Seats[:2])
	}
	day := p.Rounds[0].Day
	if len(day.Votes) != 2 || day.AllVote == nil || !day.AllVote.Passed {
		t.Fatalf("day 1: %+v", day)
	}
	rows := ts.csvWith(t, c.ID, c.HostToken)
	if rows[0][1] != "No." || len(rows) != 1+len(log)+12 {
		t.Fatalf("CSV: %d rows for %d events", len(rows), len(log))
	}
}

func (ts *testServer) csvWith(t *testing.T, id, token string) [][]string {
	t.Helper()
	req, _ := http.NewRequest("GET", ts.URL+"/host/api/games/"+id+"/protocol.csv", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	return readCSV(t, res.Body)
}

func TestTheProtocolIsTheHostsUntilTheGameEnds(t *testing.T) {
	ts := startServer(t)
	c := create7(t, ts, record.DealManual)
	for _, path := range []string{"/protocol.json", "/protocol.csv"} {
		if code := call(t, "GET", ts.URL+"/host/api/games/"+c.ID+path, "", nil, nil); code != http.StatusForbidden {
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
	code, a := syncUp(t, ts, c, entries(0, cmds...)...)
	if code != 200 || !a.Ended || a.Winner != "town" {
		t.Fatalf("%d %+v", code, a)
	}
	if code := call(t, "GET", ts.URL+"/host/api/games/"+c.ID+"/protocol.json", "", nil, nil); code != 200 {
		t.Errorf("the protocol of a finished game: %d", code)
	}
	res, _ = http.Get(ts.URL + "/host/games/" + c.ID + "?lang=ka")
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), "მოქალაქეებმა გაიმარჯვეს") {
		t.Errorf("the printable page in Georgian: %d", res.StatusCode)
	}
	var list struct{ Games []assist.Summary }
	call(t, "GET", ts.URL+"/host/api/games", c.HostToken, nil, &list) // listed to its host
	if len(list.Games) != 1 || !list.Games[0].Ended || list.Games[0].Winner != "town" || list.Games[0].Players != 7 {
		t.Errorf("history: %+v", list.Games)
	}
	tbl, _, _ := ts.db.Table(context.Background(), store.KindInPerson, c.ID)
	if tbl.Status != assist.StatusEnded || tbl.Winner != "town" {
		t.Errorf("stored table: %s %s", tbl.Status, tbl.Winner)
	}
}

func TestCreateRefusesBadSettingsInTheHostsLanguage(t *testing.T) {
	ts := startServer(t)
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
		var a syncAnswer
		code := call(t, "POST", ts.URL+"/host/api/games?lang=ka", "", c.body, &a)
		if code != http.StatusBadRequest || a.Error == nil || a.Error.Code != c.code || a.Error.Message == "" {
			t.Errorf("%v: %d %+v, want %s", c.body, code, a.Error, c.code)
		}
	}
}

func TestACardLinkOpensOnlyItsCard(t *testing.T) {
	ts := startServer(t)
	c := create7(t, ts, record.DealLinks)
	if len(c.Cards) != 7 || !strings.HasPrefix(c.Cards[2].URL, "/host/card/"+c.ID+"/3#") {
		t.Fatalf("cards: %+v", c.Cards)
	}
	var card struct {
		Seat       int
		Name, Role string
		RoleName   string `json:"role_name"`
	}
	if code := call(t, "GET", ts.URL+"/host/api/games/"+c.ID+"/cards/3?lang=ru", c.Cards[2].Token, nil, &card); code != 200 {
		t.Fatalf("card 3: %d", code)
	}
	if card.Seat != 3 || card.Name != "C" || card.Role != c.Settings.Roles[2] || card.RoleName == "" {
		t.Errorf("card 3: %+v", card)
	}
	if code := call(t, "GET", ts.URL+"/host/api/games/"+c.ID+"/cards/4", c.Cards[2].Token, nil, nil); code != http.StatusForbidden {
		t.Errorf("seat 3's token opened seat 4: %d", code)
	}
	var seen struct{ Viewed []int }
	call(t, "GET", ts.URL+"/host/api/games/"+c.ID+"/cards", c.HostToken, nil, &seen)
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
	ts := &testServer{db: db, h: assist.New(assist.Config{Store: fs})}
	hs := httptestServer(t, ts)
	ts.URL = hs
	c := create7(t, ts, record.DealManual)
	fs.fail = true
	batch := entries(0, kill7, next)
	if code, _ := syncUp(t, ts, c, batch...); code != http.StatusInternalServerError {
		t.Fatalf("a failed append answers %d", code)
	}
	// The phone sends the same entries again; the server rebuilds the game
	// from the store, appends the missing events, and takes the repeat as
	// a repeat.
	code, a := syncUp(t, ts, c, batch...)
	if code != 200 || a.Applied != 2 {
		t.Fatalf("%d %+v", code, a)
	}
	log := storedEvents(t, ts, c.ID)
	_, want, _ := record.Replay(&c.Settings, batch)
	ws := make([]wire.Event, len(log))
	for i, e := range log {
		ws[i] = wire.FromEvent(e, 7)
	}
	checkLog(t, ws, want)
	// A fresh handler on the same store (a restarted server) agrees.
	ts.h = assist.New(assist.Config{Store: db})
	if code, a := syncUp(t, ts, c, batch...); code != 200 || a.Events != len(want) {
		t.Fatalf("after a restart: %d %+v", code, a)
	}
}

func TestConcurrentRepeatsOfABatchApplyItOnce(t *testing.T) {
	ts := startServer(t)
	c := create7(t, ts, record.DealManual)
	batch := entries(0, kill7, next, next, engine.Command{Verb: engine.Nominate, By: 1, Target: 4})
	done := make(chan syncAnswer, 8)
	body, _ := json.Marshal(map[string]any{"commands": batch})
	for range 8 {
		go func() {
			var a syncAnswer
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
	if got := len(storedEvents(t, ts, c.ID)); got != len(want) {
		t.Fatalf("%d events stored, want %d", got, len(want))
	}
	if got := len(ts.storedEntries(t, c.ID)); got != len(batch) {
		t.Fatalf("%d entries stored, want %d", got, len(batch))
	}
}

// TestSyncRefusesAnEntryForAStepThatHasPassed: an entry carries the step
// the host's screen was drawn for; a second "end" for the same speech (a
// double tap that reached the server) is refused with stale_step and
// changes nothing, and the entries before it are kept.
func TestSyncRefusesAnEntryForAStepThatHasPassed(t *testing.T) {
	ts := startServer(t)
	c := create7(t, ts, record.DealManual)
	night := entries(0, kill7, next) // night 1 is step 1
	night[0].Step, night[1].Step = 1, 1
	if code, a := syncUp(t, ts, c, night...); code != 200 || a.Applied != 2 {
		t.Fatalf("night: %d %+v", code, a)
	}
	ends := entries(2, next, next)
	ends[0].Step, ends[1].Step = 2, 2 // both drawn for the morning's first step
	before := len(storedEvents(t, ts, c.ID))
	code, a := syncUp(t, ts, c, ends...)
	if code != http.StatusConflict || a.Error == nil || a.Error.Code != string(record.CodeStaleStep) || a.Error.Message == "" || a.Applied != 3 {
		t.Fatalf("a second end for the same speech: %d %+v", code, a)
	}
	g, err := engine.Replay(storedEvents(t, ts, c.ID))
	if err != nil {
		t.Fatal(err)
	}
	once, _, err := record.Replay(&c.Settings, append(night, ends[0]))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(ts.storedEntries(t, c.ID)); n != 3 || atOf(g) != atOf(once) || len(storedEvents(t, ts, c.ID)) == before {
		t.Fatalf("after the refusal: %d entries, the game at %+v, want %+v after one end", n, atOf(g), atOf(once))
	}
}
