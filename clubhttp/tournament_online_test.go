package clubhttp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mafia/account"
	"mafia/client"
	"mafia/club"
	"mafia/clubhttp"
	"mafia/rng"
	"mafia/room"
	"mafia/server"
	"mafia/store/sqlite"
	"mafia/tournament"
	"mafia/wire"
)

// onlineSite is the game server and the clubs' handler on one real
// loopback server, on one real SQLite file, with the site's accounts: a
// club's online tournament opens its tables on that server.
type onlineSite struct {
	URL  string
	api  *client.API
	svc  *account.Service
	srv  *server.Server
	db   *sqlite.DB
	club struct{ ID, Token string }
}

func startOnlineSite(t *testing.T) *onlineSite {
	t.Helper()
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	svc := account.New(account.Config{Store: db, Params: account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}})
	// Every player plays from loopback: no seat limit per address; the
	// bots move at once.
	srv := server.New(server.Config{Store: db, Accounts: svc, SeatsPerAddress: -1, Pace: room.PaceInstant})
	if _, err := srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	clubs := clubhttp.New(clubhttp.Config{Store: db, Accounts: svc})
	clubs.ServeOnline(srv)
	mux := http.NewServeMux()
	mux.Handle("/host/", clubs)
	mux.Handle("/", srv.Handler())
	hs := httptest.NewUnstartedServer(nil)
	hs.Config = srv.HTTPServer(mux)
	hs.Listener = srv.Listener(hs.Listener)
	hs.Start()
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		srv.Close()
		db.Close()
	})
	s := &onlineSite{URL: hs.URL, api: &client.API{Base: hs.URL}, svc: svc, srv: srv, db: db}
	if code := do(t, "POST", hs.URL+"/host/api/clubs", "", map[string]any{"name": "Online club"}, &s.club); code != http.StatusCreated {
		t.Fatalf("make a club: %d", code)
	}
	return s
}

// players adds n people to the club's roster, each linked to an account
// of their own (names P01..), and returns the roster ids and the
// accounts' logins, in that order.
func (s *onlineSite) players(t *testing.T, n int) ([]string, []string) {
	t.Helper()
	var ids, creds []string
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("P%02d", i)
		_, tok, err := s.svc.Signup(context.Background(), name, "password1", "")
		if err != nil {
			t.Fatal(err)
		}
		var p club.Person
		if code := do(t, "POST", s.URL+"/host/api/clubs/"+s.club.ID+"/people", s.club.Token, map[string]any{"name": "Player " + name}, &p); code != http.StatusCreated {
			t.Fatalf("add %s: %d", name, code)
		}
		if code := do(t, "PUT", s.URL+"/host/api/clubs/"+s.club.ID+"/people/"+p.ID+"/account", s.club.Token, map[string]any{"name": name}, nil); code != http.StatusOK {
			t.Fatalf("link %s: %d", name, code)
		}
		ids, creds = append(ids, p.ID), append(creds, tok)
	}
	return ids, creds
}

// onlineRoundAnswer is a round's online state as the API answers it.
type onlineRoundAnswer struct {
	Round  int
	Tables []struct {
		Table   int
		Online  string
		Link    string
		State   string
		Waiting []string
		Seats   []struct {
			Seat            int
			Person, Name    string
			Present, Absent bool
		}
		Game, Winner string
	}
}

// myTableAnswer is a player's own table as the API answers it.
type myTableAnswer struct {
	Person             string
	Round, Table, Seat int
	Link               string
}

// playOnline plays a seat to the end with random legal moves, one request
// at a time and one per view.
func playOnline(ctx context.Context, c *client.Conn, seed uint64) error {
	src := rng.New(seed)
	waiting, fresh := int64(0), c.View != nil
	act := func() error {
		v := c.View
		if waiting != 0 || !fresh || v == nil || v.Phase == "ended" {
			return nil
		}
		fresh = false
		m, ok := client.RandomMove(v, &src)
		if !ok && v.Legal.Pass {
			m, ok = wire.ClientMessage{Type: "command", Verb: "pass"}, true
		}
		if !ok {
			return nil
		}
		id, err := c.Send(ctx, m)
		waiting = id
		return err
	}
	for {
		if err := act(); err != nil {
			return err
		}
		data, err := c.ReadRaw(ctx)
		if err != nil {
			return err
		}
		m, err := c.Absorb(data)
		if err != nil {
			return err
		}
		if (m.Type == "reply" || m.Type == "error") && m.ID == waiting {
			waiting = 0
		}
		fresh = fresh || m.View != nil
		if c.View != nil && c.View.Phase == "ended" {
			return nil
		}
	}
}

// sitAndPlay has each player (by login) take their seat at their table
// as their page would, by the link of their own view (GET .../mine), and
// play it to the end.
func (s *onlineSite) sitAndPlay(t *testing.T, ctx context.Context, base string, creds []string, round int) {
	t.Helper()
	conns := make([]*client.Conn, len(creds))
	for i, cred := range creds {
		var mine myTableAnswer
		if code := do(t, "GET", base+"/mine", cred, nil, &mine); code != http.StatusOK || mine.Round != round {
			t.Fatalf("player %d's table: %d %+v", i+1, code, mine)
		}
		table := strings.TrimPrefix(mine.Link, "/t/")
		j, err := s.api.Join(ctx, table, "ignored", 0, cred)
		if err != nil {
			t.Fatalf("player %d sits: %v", i+1, err)
		}
		if j.Seat != mine.Seat {
			t.Fatalf("player %d sat at %d, their view says %d", i+1, j.Seat, mine.Seat)
		}
		if conns[i], err = s.api.Dial(ctx, table, j.Token, 0); err != nil {
			t.Fatal(err)
		}
	}
	errs := make(chan error, len(conns))
	for i, c := range conns {
		go func() { errs <- playOnline(ctx, c, uint64(round*100+i)) }()
	}
	for range conns {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range conns {
		c.Close()
	}
}

// finished waits until every table of the round has its game linked
// (each read of the round links the games that ended).
func finished(t *testing.T, ctx context.Context, base string, round int) onlineRoundAnswer {
	t.Helper()
	for ctx.Err() == nil {
		var st onlineRoundAnswer
		if code := do(t, "GET", fmt.Sprintf("%s/rounds/%d/online", base, round), "", nil, &st); code != http.StatusOK {
			t.Fatalf("round %d's state: %d", round, code)
		}
		done := len(st.Tables) > 0
		for _, tb := range st.Tables {
			done = done && tb.State == "finished" && tb.Game != ""
		}
		if done {
			return st
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("round %d never finished", round)
	return onlineRoundAnswer{}
}

// linkedInStore waits until the store's tournament has round r's tables
// linked, with no read of the tournament in between: the game's end links
// it.
func (s *onlineSite) linkedInStore(t *testing.T, ctx context.Context, id string, round int) {
	t.Helper()
	for ctx.Err() == nil {
		st, err := s.db.Tournament(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		var tr tournament.Tournament
		if err := json.Unmarshal(st.Data, &tr); err != nil {
			t.Fatal(err)
		}
		if tr.Rounds[round-1].Tables[0].Game != "" {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("round %d's game never linked by its end", round)
}

// TestOnlineTournament_PlayedByAccountsAndScoredByTheNoShowRule: a club's
// tournament of ten players (roster entries linked to accounts), one
// table, two rounds, played online on a real server on loopback by real
// WebSocket clients as the accounts. Round 1: the organiser opens it; the
// table waits for all ten; a stranger's account is refused every seat
// (seat_reserved) and round 2 may not open yet; each player finds their
// table in their own view and sits; the table starts when the last is
// there, is played to the end and its result is linked to the round's
// table at its end (in the store before anyone reads it). Round 2: the tenth player does not come; the organiser starts the
// table, a bot plays that seat and the nine play to the end. The
// standings match a hand count of the two games (a win 1.00): under the
// stand-in rule the absent player has one game only, under the forfeit
// rule two, with the club's forfeit penalty (its removal by fouls,
// -0.50).
func TestOnlineTournament_PlayedByAccountsAndScoredByTheNoShowRule(t *testing.T) {
	for _, rule := range []string{tournament.NoShowStandIn, tournament.NoShowForfeit} {
		t.Run(rule, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			s := startOnlineSite(t)
			ids, creds := s.players(t, 10)
			_, stranger, err := s.svc.Signup(ctx, "Stranger", "password1", "")
			if err != nil {
				t.Fatal(err)
			}
			timings := map[string]int64{"speech": 5000, "defence": 5000, "tie_speech": 5000, "last_words": 5000, "night": 150, "vote": 400}
			var tr tournamentAnswer
			req := map[string]any{"name": "Online cup", "from": "2026-12-05", "to": "2026-12-05", "players": ids, "tables": 1,
				"games": 2, "seed": 3, "final": map[string]any{"size": 0},
				"online": map[string]any{"no_show": rule, "wait_s": 3600, "timings_ms": timings}}
			base := s.URL + "/host/api/clubs/" + s.club.ID + "/tournaments"
			if code := do(t, "POST", base, s.club.Token, req, &tr); code != http.StatusCreated {
				t.Fatalf("make the tournament: %d", code)
			}
			base += "/" + tr.ID
			if code := do(t, "POST", base+"/rounds", s.club.Token, nil, &tr); code != http.StatusOK {
				t.Fatalf("seat the rounds: %d", code)
			}
			var no refusal
			if code := do(t, "POST", base+"/rounds/1/online", "", nil, &no); code == http.StatusOK {
				t.Fatal("a round opened without the club's code")
			}
			var r1 onlineRoundAnswer
			if code := do(t, "POST", base+"/rounds/1/online", s.club.Token, nil, &r1); code != http.StatusOK || len(r1.Tables) != 1 {
				t.Fatalf("open round 1: %d %+v", code, r1)
			}
			if tb := r1.Tables[0]; tb.State != "waiting" || len(tb.Waiting) != 10 {
				t.Fatalf("round 1's table before anyone came: %+v", tb)
			}
			if code := do(t, "POST", base+"/rounds/2/online", s.club.Token, nil, &no); code != http.StatusConflict || no.Error.Code != "tournament_round_waits" {
				t.Fatalf("round 2 before round 1 is over: %d %+v", code, no)
			}
			if code := do(t, "GET", base+"/mine", stranger, nil, &no); code != http.StatusNotFound || no.Error.Code != "tournament_no_table" {
				t.Fatalf("the stranger's table: %d %+v", code, no)
			}
			table1 := r1.Tables[0].Online
			for _, seat := range []int{0, 1, 10} {
				_, err := s.api.Join(ctx, table1, "x", seat, stranger)
				var ae *client.Error
				if !errors.As(err, &ae) || ae.Code != "seat_reserved" || ae.Status != http.StatusForbidden {
					t.Fatalf("the stranger asking for seat %d: %v", seat, err)
				}
			}
			s.sitAndPlay(t, ctx, base, creds, 1)
			s.linkedInStore(t, ctx, tr.ID, 1)
			r1 = finished(t, ctx, base, 1)

			var r2 onlineRoundAnswer
			if code := do(t, "POST", base+"/rounds/2/online", s.club.Token, nil, &r2); code != http.StatusOK {
				t.Fatalf("open round 2: %d", code)
			}
			absentID := ids[9]
			present := creds[:9]
			// The nine sit (not yet playing): the table waits for the tenth.
			table2 := r2.Tables[0].Online
			conns := make([]*client.Conn, 0, 9)
			for i, cred := range present {
				j, err := s.api.Join(ctx, table2, "ignored", 0, cred)
				if err != nil {
					t.Fatalf("player %d sits: %v", i+1, err)
				}
				c, err := s.api.Dial(ctx, table2, j.Token, 0)
				if err != nil {
					t.Fatal(err)
				}
				conns = append(conns, c)
			}
			if code := do(t, "GET", base+"/rounds/2/online", "", nil, &r2); code != http.StatusOK ||
				r2.Tables[0].State != "waiting" || len(r2.Tables[0].Waiting) != 1 || r2.Tables[0].Waiting[0] != absentID {
				t.Fatalf("round 2 waiting for the tenth: %d %+v", code, r2.Tables[0])
			}
			if code := do(t, "POST", base+"/rounds/2/tables/1/start", s.club.Token, nil, &r2); code != http.StatusOK || r2.Tables[0].State != "playing" {
				t.Fatalf("start round 2's table: %d %+v", code, r2)
			}
			for _, st := range r2.Tables[0].Seats {
				if st.Absent != (st.Person == absentID) {
					t.Fatalf("round 2's seat %d: %+v", st.Seat, st)
				}
			}
			errs := make(chan error, len(conns))
			for i, c := range conns {
				go func() { errs <- playOnline(ctx, c, uint64(200+i)) }()
			}
			for range conns {
				if err := <-errs; err != nil {
					t.Fatal(err)
				}
			}
			for _, c := range conns {
				c.Close()
			}
			s.linkedInStore(t, ctx, tr.ID, 2)
			r2 = finished(t, ctx, base, 2)

			// The hand count: a win 1.00 from each game's record; the
			// absent player's seat of round 2 by the rule.
			type count struct {
				points      club.Points
				games, wins int
			}
			want := map[string]*count{}
			for _, id := range ids {
				want[id] = &count{}
			}
			var linked tournamentAnswer
			if code := do(t, "GET", base, "", nil, &linked); code != http.StatusOK {
				t.Fatalf("read the tournament: %d", code)
			}
			for r, round := range linked.Rounds {
				tb := round.Tables[0]
				g, ok := s.srv.ClubGame(ctx, tb.Game)
				if !ok || tb.Game != tb.Online {
					t.Fatalf("round %d's game %q not linked (%v)", r+1, tb.Game, ok)
				}
				for i, p := range tb.Players {
					c := want[p]
					if r == 1 && p == absentID {
						if len(tb.Absent) != 1 || tb.Players[tb.Absent[0]-1] != absentID {
							t.Fatalf("round 2's absent seats: %v", tb.Absent)
						}
						if rule == tournament.NoShowForfeit {
							c.points -= 50
							c.games++
						}
						continue
					}
					c.games++
					if club.Won(g.Seats[i], g.Winner) {
						c.points += 100
						c.wins++
					}
				}
			}
			var st struct{ Standings []tournament.Standing }
			if code := do(t, "GET", base+"/standings.json", "", nil, &st); code != http.StatusOK || len(st.Standings) != 10 {
				t.Fatalf("standings: %d %d rows", code, len(st.Standings))
			}
			for i, row := range st.Standings {
				c := want[row.Person]
				if row.Points != c.points || row.Games != c.games || row.Wins != c.wins {
					t.Fatalf("%s: %v points, %d games, %d wins; by hand %v, %d, %d", row.Person, row.Points, row.Games, row.Wins,
						c.points, c.games, c.wins)
				}
				if i > 0 && row.Points > st.Standings[i-1].Points {
					t.Fatalf("row %d above its points' place", i+1)
				}
			}
		})
	}
}
