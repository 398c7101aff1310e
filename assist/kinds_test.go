package assist_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/server"
	"mafia/store"
)

// TestBothKindsOfTableInOneFileStayApart: the online server and the
// assistant on one SQLite file each serve their own kind of table and
// never the other's, by the table's kind in the store, whatever its status
// or its record: the online lobby and a restarted server's resume hold the
// online table alone (not a room's row stored as in person), the club's
// history the in-person game alone (not its row stored as online); each
// answers 404 for the other's tables; and a phone's game under an online
// table's ID is refused with id_taken.
func TestBothKindsOfTableInOneFileStayApart(t *testing.T) {
	ctx := context.Background()
	ts := hosttest.StartServer(t)
	game := hosttest.Create7(t, ts, record.DealPass)
	srv := server.New(server.Config{Store: ts.DB})
	var online struct{ Table string }
	if code, body := postOnline(t, srv, "/api/tables", `{"name":"Friday club","players":7,"public":true}`, &online); code != http.StatusCreated {
		t.Fatalf("online create: %d %s", code, body)
	}
	srv.Close()

	// Each kind's row, copied under the other kind with everything else
	// the same: a room's settings with a lobby's status that the store
	// keeps as in person, and an in-person record that it keeps as online.
	roomRow, roomSeats, err := ts.DB.Table(ctx, store.KindOnline, online.Table)
	if err != nil {
		t.Fatal(err)
	}
	gameRow, gameSeats, err := ts.DB.Table(ctx, store.KindInPerson, game.ID)
	if err != nil {
		t.Fatal(err)
	}
	roomAsInPerson, gameAsOnline := roomRow, gameRow
	roomAsInPerson.ID, roomAsInPerson.Kind = "room-as-in-person", store.KindInPerson
	gameAsOnline.ID, gameAsOnline.Kind = "game-as-online00", store.KindOnline
	if err := ts.DB.CreateTable(ctx, roomAsInPerson, roomSeats); err != nil {
		t.Fatal(err)
	}
	if err := ts.DB.CreateTable(ctx, gameAsOnline, gameSeats); err != nil {
		t.Fatal(err)
	}

	srv = server.New(server.Config{Store: ts.DB})
	defer srv.Close()
	if n, err := srv.Resume(ctx); err != nil || n != 1 {
		t.Errorf("the online server resumed %d tables (%v); want its one", n, err)
	}
	var lobby struct {
		Tables []struct {
			ID string `json:"table"`
		}
	}
	if err := json.Unmarshal([]byte(hosttest.GetOnline(t, srv, "/api/tables")), &lobby); err != nil ||
		len(lobby.Tables) != 1 || lobby.Tables[0].ID != online.Table {
		t.Errorf("the online lobby lists %+v (%v); want %s alone", lobby.Tables, err, online.Table)
	}
	for _, id := range []string{game.ID, roomAsInPerson.ID, gameAsOnline.ID} {
		rec := httptest.NewRecorder()
		srv.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/api/tables/"+id, nil))
		want := http.StatusNotFound
		if id == gameAsOnline.ID {
			// Online by its kind: the server reads it, and an in-person
			// record is no room's settings (damaged, not another kind's).
			want = http.StatusGone
		}
		if rec.Code != want {
			t.Errorf("the online server on %s: %d %s; want %d", id, rec.Code, rec.Body, want)
		}
	}

	var history struct{ Games []struct{ ID string } }
	ts.GetJSON(t, "/host/api/games", game.HostToken, &history) // listed to its host only
	if len(history.Games) != 1 || history.Games[0].ID != game.ID {
		t.Errorf("the club's history lists %+v; want %s alone", history.Games, game.ID)
	}
	for _, id := range []string{online.Table, gameAsOnline.ID} {
		if code := hosttest.Call(t, "GET", ts.URL+"/host/api/games/"+id, game.HostToken, nil, nil); code != http.StatusNotFound {
			t.Errorf("the assistant on online table %s: %d; want 404", id, code)
		}
	}
	req := hosttest.PhoneCreate(t, hosttest.Names7, record.DealPass, "12345")
	req["id"] = online.Table
	var r hosttest.Refused
	if code := hosttest.Call(t, "POST", ts.URL+"/host/api/games", "", req, &r); code != http.StatusConflict || r.Error == nil || r.Error.Code != "id_taken" {
		t.Errorf("a phone's game under an online table's ID: %d %+v; want 409 id_taken", code, r.Error)
	}
}

// postOnline answers a JSON POST from the online server's handler, decoding
// its answer into out.
func postOnline(t *testing.T, srv *server.Server, path, body string, out any) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("POST", path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	srv.Handler().ServeHTTP(rec, req)
	if rec.Code < 300 {
		if err := json.Unmarshal(rec.Body.Bytes(), out); err != nil {
			t.Fatalf("POST %s: %v\n%s", path, err, rec.Body)
		}
	}
	return rec.Code, rec.Body.String()
}
