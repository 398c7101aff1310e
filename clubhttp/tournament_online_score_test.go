package clubhttp_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"mafia/client"
	"mafia/club"
	"mafia/tournament"
	"mafia/wire"
)

// readUntil reads (absorbing) c's frames until cond holds of its view.
func readUntil(ctx context.Context, t *testing.T, c *client.Conn, what string, cond func(v *wire.View) bool) {
	t.Helper()
	for c.View == nil || !cond(c.View) {
		data, err := c.ReadRaw(ctx)
		if err != nil {
			t.Fatalf("waiting for %s: %v", what, err)
		}
		if _, err := c.Absorb(data); err != nil {
			t.Fatal(err)
		}
	}
}

// command sends m on c and reads until its answer: nil for a reply.
func command(ctx context.Context, c *client.Conn, m wire.ClientMessage) error {
	id, err := c.Send(ctx, m)
	if err != nil {
		return err
	}
	for {
		data, err := c.ReadRaw(ctx)
		if err != nil {
			return err
		}
		got, err := c.Absorb(data)
		if err != nil {
			return err
		}
		if got.ID == id && got.Type == "reply" {
			return nil
		}
		if got.ID == id && got.Type == "error" {
			return fmt.Errorf("%s refused: %s", m.Verb, got.Code)
		}
	}
}

// TestOnlineTournament_TheBestMoveAndTheOrganisersExtrasCount: a club's
// tournament of ten players on one table, played online on a real server
// on loopback by real WebSocket clients as the accounts. On night 1 the
// mafia kill a citizen, whose last words name the three mafia as their
// best move; the table is played to its end and linked at its end. The
// organiser then gives extra points: a seat off the table and points past
// the club's range are refused naming the seat, a stranger is refused, and
// two seats' extras are kept. The standings match a hand count from the
// game's record: the wins (1.00), the first victim's best move of three
// right (0.50), the extras; the linked game carries the table's rules code;
// the game is exported in our JSON, mafiaratings' and Polemica's, alone and
// as the tournament's, each format's fields held to the game.
func TestOnlineTournament_TheBestMoveAndTheOrganisersExtrasCount(t *testing.T) {
	t.Parallel() // it waits on its game's clocks, on a site of its own (TestMain)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	s := startOnlineSite(t)
	ids, creds := s.players(t, 10)
	timings := map[string]int64{"speech": 5000, "defence": 5000, "tie_speech": 5000, "last_words": 60_000, "night": 3000, "vote": 400}
	var tr tournamentAnswer
	req := map[string]any{"name": "Best move cup", "from": "2026-12-06", "to": "2026-12-06", "players": ids, "tables": 1,
		"games": 1, "seed": 5, "final": map[string]any{"size": 0},
		"online": map[string]any{"no_show": tournament.NoShowStandIn, "wait_s": 3600, "timings_ms": timings}}
	base := s.URL + "/host/api/clubs/" + s.club.ID + "/tournaments"
	if code := do(t, "POST", base, s.club.Token, req, &tr); code != http.StatusCreated {
		t.Fatalf("make the tournament: %d", code)
	}
	base += "/" + tr.ID
	if code := do(t, "POST", base+"/rounds", s.club.Token, nil, &tr); code != http.StatusOK || len(tr.Rounds) != 1 {
		t.Fatalf("seat the rounds: %d, %d rounds", code, len(tr.Rounds))
	}
	var r1 onlineRoundAnswer
	if code := do(t, "POST", base+"/rounds/1/online", s.club.Token, nil, &r1); code != http.StatusOK || len(r1.Tables) != 1 {
		t.Fatalf("open round 1: %d %+v", code, r1)
	}
	conns := s.sit(t, ctx, base, creds, 1)
	bySeat := make([]*client.Conn, 11)
	var mafia []int
	victim := 0
	for _, c := range conns {
		readUntil(ctx, t, c, "night 1", func(v *wire.View) bool { return v.Phase == "night" })
		bySeat[c.View.Seat] = c
		if r := c.View.Role; r == "don" || r == "mafia" {
			mafia = append(mafia, c.View.Seat)
		}
		if k := c.View.Legal.Kill; len(k) > 0 && (victim == 0 || k[0] < victim) {
			victim = k[0]
		}
	}
	slices.Sort(mafia)
	if len(mafia) != 3 || victim == 0 {
		t.Fatalf("the deal: mafia %v, victim %d", mafia, victim)
	}
	// The night: the mafia kill the victim; every other move skipped.
	for s := 1; s <= 10; s++ {
		c := bySeat[s]
		l := c.View.Legal
		if len(l.Kill) > 0 {
			if err := command(ctx, c, wire.ClientMessage{Type: "command", Verb: "kill", Target: victim}); err != nil {
				t.Fatal(err)
			}
			if c.View.Role != "don" {
				continue
			}
		}
		if l.Skip {
			if err := command(ctx, c, wire.ClientMessage{Type: "command", Verb: "skip"}); err != nil {
				t.Fatal(err)
			}
		}
	}
	vc := bySeat[victim]
	readUntil(ctx, t, vc, "the victim's last words", func(v *wire.View) bool { return v.Phase == "last_words" && v.Speaker == victim })
	if !vc.View.Legal.BestMove {
		t.Fatalf("the victim's last words offer no best move: %+v", vc.View.Legal)
	}
	if err := command(ctx, vc, wire.ClientMessage{Type: "command", Verb: "best_move", Guess: mafia}); err != nil {
		t.Fatal(err)
	}
	s.play(t, ctx, conns, 300)
	s.linkedInStore(t, ctx, tr.ID, 1)
	st := finished(t, ctx, base, 1)
	online := st.Tables[0].Online

	g, ok := s.srv.ClubGame(ctx, online)
	if !ok || g.BestMove == nil || g.BestMove.Seat != victim || !slices.Equal(g.BestMove.Guess, mafia) || g.BestMoveRight(*g.BestMove) != 3 {
		t.Fatalf("the linked game's best move: %+v (%v), want seat %d's %v, 3 right", g.BestMove, ok, victim, mafia)
	}
	if g.Rules == "" {
		t.Error("the linked game has no rules code")
	}

	// The organiser's extra points: refusals naming the seat, then two kept.
	extraURL := base + "/rounds/1/tables/1/extra"
	for _, c := range []struct {
		extra []map[string]any
		seat  string
	}{
		{[]map[string]any{{"seat": 11, "points": 0.2}}, "11"},
		{[]map[string]any{{"seat": 3, "points": 0.8}}, "3"},
		{[]map[string]any{{"seat": 4, "points": 0.2}, {"seat": 4, "points": 0.1}}, "4"},
	} {
		var no refusal
		if code := do(t, "PUT", extraURL, s.club.Token, map[string]any{"extra": c.extra}, &no); code != http.StatusBadRequest ||
			no.Error.Code != "bad_extra" || !strings.Contains(no.Error.Message, c.seat) {
			t.Errorf("extras %v: %d %+v, want bad_extra naming seat %s", c.extra, code, no, c.seat)
		}
	}
	var no refusal
	if code := do(t, "PUT", extraURL, "", map[string]any{"extra": []map[string]any{{"seat": 1, "points": 0.5}}}, &no); code < 400 {
		t.Errorf("a stranger's extras: %d", code)
	}
	extras := map[int]club.Points{2: 30, victim%10 + 1: -20}
	body := []map[string]any{}
	for seat, p := range extras {
		body = append(body, map[string]any{"seat": seat, "points": float64(p) / 100})
	}
	if code := do(t, "PUT", extraURL, s.club.Token, map[string]any{"extra": body}, &st); code != http.StatusOK {
		t.Fatalf("the extras: %d", code)
	}

	// The hand count, from the game's record and what was given.
	sc := club.DefaultScoring()
	var linked tournamentAnswer
	if code := do(t, "GET", base, "", nil, &linked); code != http.StatusOK {
		t.Fatalf("read the tournament: %d", code)
	}
	want := map[string]club.Points{}
	for i, p := range linked.Rounds[0].Tables[0].Players {
		seat := g.Seats[i]
		var pts club.Points
		if club.Won(seat, g.Winner) {
			pts += sc.Win
		}
		if seat.RemovedByFouls() {
			pts += sc.Fouls
		}
		if seat.Seat == victim {
			pts += sc.BestMove3
		}
		pts += extras[seat.Seat]
		want[p] = pts
	}
	var rows struct{ Standings []tournament.Standing }
	if code := do(t, "GET", base+"/standings.json", "", nil, &rows); code != http.StatusOK || len(rows.Standings) != 10 {
		t.Fatalf("standings: %d, %d rows", code, len(rows.Standings))
	}
	for _, row := range rows.Standings {
		if row.Points != want[row.Person] {
			t.Errorf("%s: %v points, by hand %v", row.Person, row.Points, want[row.Person])
		}
		if i := slices.Index(linked.Rounds[0].Tables[0].Players, row.Person); i+1 == victim && row.BestMove != sc.BestMove3 {
			t.Errorf("the victim's best-move points %v, want %v", row.BestMove, sc.BestMove3)
		} else if row.Extra != extras[i+1] {
			t.Errorf("seat %d's extra %v, want %v", i+1, row.Extra, extras[i+1])
		}
	}

	// The games' CSV: the rules code, the best move and the extras on
	// their seats' rows, each seat's player from the seating.
	res, err := http.Get(base + "/games.csv?header=ids")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(res.Body).ReadAll()
	res.Body.Close()
	if err != nil || len(recs) != 11 {
		t.Fatalf("the games' CSV: %v, %d rows", err, len(recs))
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	players := linked.Rounds[0].Tables[0].Players
	for _, row := range recs[1:] {
		seat, _ := strconv.Atoi(row[col["seat"]])
		if row[col["rules"]] != g.Rules || row[col["game"]] != online || row[col["person"]] != players[seat-1] {
			t.Errorf("seat %d's row: rules %q, game %q, person %q; want %q, %q, %q", seat, row[col["rules"]], row[col["game"]],
				row[col["person"]], g.Rules, online, players[seat-1])
		}
		if want := extras[seat].String(); row[col["points_extra"]] != want {
			t.Errorf("seat %d's extra %q, want %q", seat, row[col["points_extra"]], want)
		}
		if seat == victim && (row[col["best_move"]] != fmt.Sprintf("%d %d %d", mafia[0], mafia[1], mafia[2]) ||
			row[col["best_move_right"]] != "3" || row[col["points_best_move"]] != sc.BestMove3.String()) {
			t.Errorf("the victim's row: best move %q, right %q, points %q", row[col["best_move"]], row[col["best_move_right"]],
				row[col["points_best_move"]])
		}
	}

	// The game in our JSON, mafiaratings' and Polemica's (exports_tournament_test.go).
	checkTournamentExports(t, base, s.URL+"/host/clubs/"+s.club.ID+"/tournaments/"+tr.ID, "Best move cup", online, g, players, extras, want)
}
