package clubhttp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	"mafia/internal/sqlitetest"
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
	db, err := sqlitetest.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	svc := account.New(account.Config{Store: db, Params: account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}})
	// Every player plays from loopback: no seat limit per address; the
	// bots move at once.
	// Twenty players share the test's one loopback address, as twenty
	// phones do not: the address's frame rate (60 a second) would refuse
	// their instant moves.
	srv := server.New(server.Config{Store: db, Accounts: svc, SeatsPerAddress: -1, Pace: room.PaceInstant,
		Limits: server.Limits{AddrRate: 10_000, AddrBurst: 10_000}})
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
		// A frame refused unread (rate_limited, …) is answered without its
		// id (docs/protocol.md): it is the answer to the one request
		// waiting, which is sent again on the next view.
		if m.Type == "error" && m.ID == 0 && waiting != 0 {
			waiting = 0
		}
		fresh = fresh || m.View != nil
		if c.View != nil && c.View.Phase == "ended" {
			return nil
		}
	}
}

// sit has each player (by login) take their seat at their table as
// their page would, by the link of their own view (GET .../mine), and
// connect; it returns the connections.
func (s *onlineSite) sit(t *testing.T, ctx context.Context, base string, creds []string, round int) []*client.Conn {
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
	return conns
}

// play plays every connection to the end, each with random legal moves
// from its own seed.
func (s *onlineSite) play(t *testing.T, ctx context.Context, conns []*client.Conn, seed uint64) {
	t.Helper()
	errs := make(chan error, len(conns))
	for i, c := range conns {
		go func() { errs <- playOnline(ctx, c, seed+uint64(i)) }()
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

// linkedInStore waits until the store's tournament has every table of
// round r linked, with no read of the tournament in between: the games'
// ends link them.
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
		done := true
		for _, tb := range tr.Rounds[round-1].Tables {
			done = done && tb.Game != ""
		}
		if done {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("round %d's games never linked by their end", round)
}

// TestOnlineTournament_PlayedByAccountsAndScoredByTheNoShowRule: a club's
// tournament (20 players on two tables, and 10 on one), two rounds, its
// players roster entries linked to accounts, played online on a real
// server on loopback by real WebSocket clients as the accounts. Round 1:
// the organiser opens it; each table waits for its ten; a stranger's
// account is refused every seat (seat_reserved) and round 2 may not open
// yet; each player finds their table in their own view and sits; each
// table starts when its last player is there, is played to the end, and
// its result is linked to the round's table at its end (in the store
// before anyone reads it). Round 2: the player of table 1's seat 10 does
// not come; the other tables start by themselves, the organiser starts
// table 1, a bot plays that seat and the others play to the end. The
// standings match a hand count of the games (a win 1.00): under the
// stand-in rule the absent player has one game fewer, under the forfeit
// rule the game with the club's forfeit penalty (its removal by fouls,
// -0.50) and no win.
func TestOnlineTournament_PlayedByAccountsAndScoredByTheNoShowRule(t *testing.T) {
	t.Parallel() // it waits on its games' clocks, on a site of its own (TestMain)
	for _, c := range []struct {
		rule            string
		players, tables int
	}{{tournament.NoShowStandIn, 20, 2}, {tournament.NoShowForfeit, 10, 1}} {
		t.Run(c.rule, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
			defer cancel()
			s := startOnlineSite(t)
			ids, creds := s.players(t, c.players)
			credOf := map[string]string{}
			for i, id := range ids {
				credOf[id] = creds[i]
			}
			_, stranger, err := s.svc.Signup(ctx, "Stranger", "password1", "")
			if err != nil {
				t.Fatal(err)
			}
			timings := map[string]int64{"speech": 5000, "defence": 5000, "tie_speech": 5000, "last_words": 5000, "night": 150, "vote": 400}
			var tr tournamentAnswer
			req := map[string]any{"name": "Online cup", "from": "2026-12-05", "to": "2026-12-05", "players": ids, "tables": c.tables,
				"games": 2, "seed": 3, "final": map[string]any{"size": 0},
				"online": map[string]any{"no_show": c.rule, "wait_s": 3600, "timings_ms": timings}}
			base := s.URL + "/host/api/clubs/" + s.club.ID + "/tournaments"
			if code := do(t, "POST", base, s.club.Token, req, &tr); code != http.StatusCreated {
				t.Fatalf("make the tournament: %d", code)
			}
			base += "/" + tr.ID
			if code := do(t, "POST", base+"/rounds", s.club.Token, nil, &tr); code != http.StatusOK || len(tr.Rounds) != 2 {
				t.Fatalf("seat the rounds: %d, %d rounds", code, len(tr.Rounds))
			}
			var no refusal
			if code := do(t, "POST", base+"/rounds/1/online", "", nil, &no); code == http.StatusOK {
				t.Fatal("a round opened without the club's code")
			}
			var r1 onlineRoundAnswer
			if code := do(t, "POST", base+"/rounds/1/online", s.club.Token, nil, &r1); code != http.StatusOK || len(r1.Tables) != c.tables {
				t.Fatalf("open round 1: %d %+v", code, r1)
			}
			for _, tb := range r1.Tables {
				if tb.State != "waiting" || len(tb.Waiting) != 10 {
					t.Fatalf("round 1's table %d before anyone came: %+v", tb.Table, tb)
				}
			}
			// The printable page links each table of the round to its
			// page online, not to the assistant's setup.
			res, err := http.Get(s.URL + "/host/clubs/" + s.club.ID + "/tournaments/" + tr.ID + "?lang=en")
			if err != nil {
				t.Fatal(err)
			}
			page, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if !strings.Contains(string(page), `href="/t/`+r1.Tables[0].Online+`"`) || !strings.Contains(string(page), "Sit at this table online") {
				t.Fatalf("the page has no link to round 1's table online:\n%s", page)
			}
			if code := do(t, "POST", base+"/rounds/2/online", s.club.Token, nil, &no); code != http.StatusConflict || no.Error.Code != "tournament_round_waits" {
				t.Fatalf("round 2 before round 1 is over: %d %+v", code, no)
			}
			if code := do(t, "GET", base+"/mine", stranger, nil, &no); code != http.StatusNotFound || no.Error.Code != "tournament_no_table" {
				t.Fatalf("the stranger's table: %d %+v", code, no)
			}
			for _, seat := range []int{0, 1, 10} {
				_, err := s.api.Join(ctx, r1.Tables[0].Online, "x", seat, stranger)
				var ae *client.Error
				if !errors.As(err, &ae) || ae.Code != "seat_reserved" || ae.Status != http.StatusForbidden {
					t.Fatalf("the stranger asking for seat %d: %v", seat, err)
				}
			}
			s.play(t, ctx, s.sit(t, ctx, base, creds, 1), 100)
			s.linkedInStore(t, ctx, tr.ID, 1)
			finished(t, ctx, base, 1)

			var r2 onlineRoundAnswer
			if code := do(t, "POST", base+"/rounds/2/online", s.club.Token, nil, &r2); code != http.StatusOK {
				t.Fatalf("open round 2: %d", code)
			}
			absentID := tr.Rounds[1].Tables[0].Players[9]
			var present []string
			for _, id := range ids {
				if id != absentID {
					present = append(present, credOf[id])
				}
			}
			conns := s.sit(t, ctx, base, present, 2)
			if code := do(t, "GET", base+"/rounds/2/online", "", nil, &r2); code != http.StatusOK ||
				r2.Tables[0].State != "waiting" || len(r2.Tables[0].Waiting) != 1 || r2.Tables[0].Waiting[0] != absentID {
				t.Fatalf("round 2's table 1 waiting for its tenth: %d %+v", code, r2.Tables[0])
			}
			for _, tb := range r2.Tables[1:] {
				if tb.State != "playing" {
					t.Fatalf("round 2's table %d, all there: %+v", tb.Table, tb)
				}
			}
			if code := do(t, "POST", base+"/rounds/2/tables/1/start", s.club.Token, nil, &r2); code != http.StatusOK || r2.Tables[0].State != "playing" {
				t.Fatalf("start round 2's table 1: %d %+v", code, r2)
			}
			if code := do(t, "POST", base+"/rounds/2/tables/1/start", s.club.Token, nil, &no); code != http.StatusConflict || no.Error.Code != "tournament_table_started" {
				t.Fatalf("round 2's table 1 started twice: %d %+v", code, no)
			}
			for _, st := range r2.Tables[0].Seats {
				if st.Absent != (st.Person == absentID) || st.Present == st.Absent {
					t.Fatalf("round 2's seat %d: %+v", st.Seat, st)
				}
			}
			s.play(t, ctx, conns, 200)
			s.linkedInStore(t, ctx, tr.ID, 2)
			finished(t, ctx, base, 2)

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
				for n, tb := range round.Tables {
					g, ok := s.srv.ClubGame(ctx, tb.Game)
					if !ok || tb.Game != tb.Online {
						t.Fatalf("round %d table %d's game %q not linked (%v)", r+1, n+1, tb.Game, ok)
					}
					wantAbsent := r == 1 && n == 0
					if wantAbsent != (len(tb.Absent) == 1 && tb.Players[tb.Absent[0]-1] == absentID) || (!wantAbsent && len(tb.Absent) != 0) {
						t.Fatalf("round %d table %d's absent seats: %v", r+1, n+1, tb.Absent)
					}
					for i, p := range tb.Players {
						w := want[p]
						if wantAbsent && p == absentID {
							if c.rule == tournament.NoShowForfeit {
								w.points -= 50
								w.games++
							}
							continue
						}
						w.games++
						if club.Won(g.Seats[i], g.Winner) {
							w.points += 100
							w.wins++
						}
					}
				}
			}
			var st struct{ Standings []tournament.Standing }
			if code := do(t, "GET", base+"/standings.json", "", nil, &st); code != http.StatusOK || len(st.Standings) != c.players {
				t.Fatalf("standings: %d %d rows", code, len(st.Standings))
			}
			for i, row := range st.Standings {
				w := want[row.Person]
				if row.Points != w.points || row.Games != w.games || row.Wins != w.wins {
					t.Fatalf("%s: %v points, %d games, %d wins; by hand %v, %d, %d", row.Person, row.Points, row.Games, row.Wins,
						w.points, w.games, w.wins)
				}
				if i > 0 && row.Points > st.Standings[i-1].Points {
					t.Fatalf("row %d above its points' place", i+1)
				}
			}
		})
	}
}
