package hosttest

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"mafia/assist"
	"mafia/assist/bridge"
	"mafia/assist/record"
	"mafia/engine"
	"mafia/server"
	"mafia/store"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// Call sends a JSON request and decodes the JSON answer into out (if not nil).
func Call(t *testing.T, method, url, token string, body, out any) int {
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

// Created is the assistant's answer to a game made through its API.
type Created struct {
	ID        string          `json:"id"`
	HostToken string          `json:"host_token"`
	Settings  record.Settings `json:"settings"`
	Cards     []assist.Card   `json:"cards"`
}

// Roles7 is the deal of the tie scenario (scenario/testdata/examples/04),
// by hand.
var Roles7 = []string{"citizen", "don", "citizen", "mafia", "detective", "doctor", "citizen"}

// Create7 makes a seven-player game of the given deal through the API
// (with deal by hand, the deal of Roles7).
func Create7(t *testing.T, ts *Server, deal string) Created {
	t.Helper()
	req := map[string]any{"names": []string{"A", "B", "C", "D", "E", "F", "G"}, "deal": deal}
	if deal == record.DealManual {
		req["roles"] = Roles7
	}
	var c Created
	if code := Call(t, "POST", ts.URL+"/host/api/games", "", req, &c); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	return c
}

// SyncAnswer is the assistant's answer to a sync of the host's entries.
type SyncAnswer struct {
	Applied int    `json:"applied"`
	Events  int    `json:"events"`
	Ended   bool   `json:"ended"`
	Winner  string `json:"winner"`
	Error   *struct {
		Code, Message string
	} `json:"error"`
}

// SyncUp sends entries to game c's sync and returns the status and answer.
func SyncUp(t *testing.T, ts *Server, c Created, cmds ...record.Command) (int, SyncAnswer) {
	t.Helper()
	var a SyncAnswer
	code := Call(t, "POST", ts.URL+"/host/api/games/"+c.ID+"/sync", c.HostToken, map[string]any{"commands": cmds}, &a)
	return code, a
}

// Entries numbers commands from seq on.
func Entries(seq int, cmds ...engine.Command) []record.Command {
	out := make([]record.Command, len(cmds))
	for i, c := range cmds {
		out[i] = record.FromEngine(c)
		out[i].Seq, out[i].ID = seq+i, fmt.Sprintf("id-%d", seq+i)
	}
	return out
}

// Kill7 (the Don's kill of seat 7) and Next (the host's next step) are two
// commands the tests enter often.
var (
	Kill7 = engine.Command{Verb: engine.Kill, By: 2, Target: 7}
	Next  = engine.Command{Verb: engine.Next}
)

// StoredEvents returns game id's events as the store holds them.
func StoredEvents(t *testing.T, ts *Server, id string) []engine.Event {
	t.Helper()
	evs, err := ts.DB.Events(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// PlayTie plays the tie scenario's entries (scenario/testdata/examples/04) to night 2.
func PlayTie(t *testing.T, ts *Server, c Created) []record.Command {
	t.Helper()
	v := func(by, target int) engine.Command {
		return engine.Command{Verb: engine.Vote, By: engine.Seat(by), Target: engine.Seat(target)}
	}
	yes := func(by int) engine.Command {
		return engine.Command{Verb: engine.AllVote, By: engine.Seat(by), Yes: true}
	}
	cmds := []engine.Command{Kill7, Next, Next,
		{Verb: engine.Nominate, By: 1, Target: 4}, Next, {Verb: engine.Nominate, By: 2, Target: 1}, Next, Next, Next, Next, Next,
		Next, Next, v(1, 4), v(3, 4), v(5, 4), v(2, 1), v(4, 1), Next, Next, Next,
		v(1, 4), v(3, 4), v(5, 4), v(2, 1), v(4, 1), v(6, 1), Next,
		yes(1), yes(3), yes(5), yes(6), {Verb: engine.AllVote, By: 2}, Next, Next, Next}
	list := Entries(0, cmds...)
	if code, a := SyncUp(t, ts, c, list...); code != 200 || a.Applied != len(list) {
		t.Fatalf("%d %+v", code, a)
	}
	return list
}

// CsvWith reads game id's protocol as CSV with token.
func (ts *Server) CsvWith(t *testing.T, id, token string) [][]string {
	t.Helper()
	req, _ := http.NewRequest("GET", ts.URL+"/host/api/games/"+id+"/protocol.csv", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	return ReadCSV(t, res.Body)
}

// PhoneDeal deals a game as the host's page does without the server: the
// same bridge function the WebAssembly engine runs.
func PhoneDeal(t *testing.T, req map[string]any, seed string) record.Settings {
	t.Helper()
	b, _ := json.Marshal(req)
	var r struct {
		Settings *record.Settings
		Error    *bridge.Refusal
	}
	if err := json.Unmarshal([]byte(bridge.New().Deal(string(b), seed)), &r); err != nil {
		t.Fatal(err)
	}
	if r.Error != nil || r.Settings == nil {
		t.Fatalf("the phone's deal: %+v", r.Error)
	}
	return *r.Settings
}

// PhoneCreate is the create a phone sends for a game it made: the setup,
// the phone's id, host token, seed, deal and date.
func PhoneCreate(t *testing.T, names []string, deal, seed string) map[string]any {
	t.Helper()
	req := map[string]any{"names": names, "deal": deal, "name": "Friday", "lang": "ka",
		"options": map[string]string{"second_tie": "nobody"}}
	if deal == record.DealManual {
		req["roles"] = Roles7
	}
	s := PhoneDeal(t, req, seed)
	req["id"] = "0123456789abcdef"
	req["host_token"] = strings.Repeat("ab", 24)
	req["dealt"] = s.Roles
	if deal != record.DealManual {
		req["seed"] = seed
	}
	req["created"] = time.Now().Add(-3 * time.Hour).UTC().Format(time.RFC3339Nano)
	return req
}

// Names7 are seven players' names.
var Names7 = []string{"Nino", "Giorgi", "Tamar", "Levan", "Ana", "Dato", "Eka"}

// Refused is a refusal's answer: its code and sentence.
type Refused struct {
	Error *struct{ Code, Message string } `json:"error"`
}

// TableCount is how many in-person games the store holds, live or
// ended (the history lists each to its host only).
func TableCount(t *testing.T, ts *Server) int {
	t.Helper()
	n := 0
	for _, st := range []store.Status{assist.StatusLive, assist.StatusEnded} {
		tables, err := ts.DB.Tables(context.Background(), store.KindInPerson, store.TableFilter{Status: st})
		if err != nil {
			t.Fatal(err)
		}
		n += len(tables)
	}
	return n
}

// StoredTable is a table's row as JSON (to see that nothing changed).
func (ts *Server) StoredTable(t *testing.T, id string) string {
	t.Helper()
	tbl, seats, err := ts.DB.Table(context.Background(), store.KindInPerson, id)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{"t": tbl, "s": seats, "e": len(StoredEvents(t, ts, id))})
	return string(b)
}

// Status reads a table's store status and winner.
func (ts *Server) Status(t *testing.T, id string) struct {
	Status any
	Winner string
} {
	t.Helper()
	tbl, _, err := ts.DB.Table(context.Background(), store.KindInPerson, id)
	if err != nil {
		t.Fatal(err)
	}
	return struct {
		Status any
		Winner string
	}{tbl.Status, tbl.Winner}
}

// ReadCSV reads a CSV export, without its leading byte-order mark (which
// TestTheCSVOpensInASpreadsheet checks).
func ReadCSV(t *testing.T, r io.Reader) [][]string {
	t.Helper()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(b, []byte("\ufeff")))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// GetOnline answers a GET from the online server's handler.
func GetOnline(t *testing.T, srv *server.Server, path string) string {
	t.Helper()
	rec := httptest.NewRecorder()
	srv.Handler().ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	return rec.Body.String()
}

// TwentyNames are twenty players of a club's evening, Georgian and Latin.
var TwentyNames = []string{"ნინო ბერიძე", "გიორგი", "თამარ ჯავახიშვილი", "დავითი", "ლევანი", "ანა", "საბა", "ეკატერინე", "ზურაბი", "ალექსანდრე",
	"Nino", "Keti", "Zura", "Dato", "Lika", "Gela", "Tako", "Irakli", "Eka", "Sopo"}
