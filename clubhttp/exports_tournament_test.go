package clubhttp_test

import (
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"mafia/club"
)

// checkTournamentExports reads an online tournament's one game (round 1,
// table 1: game g, linked as id, its seats' players from the seating,
// extras given, points want by person by hand) over real HTTP in each
// export format, alone and as the tournament's games, and holds each
// format's fields to the game; then the refusals, and the tournament's page
// links the three. base is the tournament's API address, page its page.
func checkTournamentExports(t *testing.T, base, page, name, id string, g club.Game, players []string,
	extras map[int]club.Points, want map[string]club.Points) {
	t.Helper()
	table := base + "/rounds/1/tables/1/export.json"
	mafia := func(role string) bool { return role == "don" || role == "mafia" }

	// Ours: the game as the standings count it, its points under the
	// tournament's scoring.
	var own struct {
		Format, Tournament string
		Round, Table       int
		Game               struct {
			Game   club.Game
			Points []club.Line
		}
	}
	if code := do(t, "GET", table, "", nil, &own); code != http.StatusOK || own.Format != "mafia" || own.Round != 1 || own.Table != 1 {
		t.Fatalf("our own export of the table: %d %+v", code, own)
	}
	og := own.Game.Game
	if og.ID != id || og.Rules != g.Rules || og.Winner != g.Winner || len(og.Seats) != len(g.Seats) ||
		og.BestMove == nil || og.BestMove.Seat != g.BestMove.Seat || !slices.Equal(og.BestMove.Guess, g.BestMove.Guess) {
		t.Errorf("our own game: id %q rules %q winner %q best move %+v; want %q, %q, %q, %+v", og.ID, og.Rules, og.Winner, og.BestMove,
			id, g.Rules, g.Winner, g.BestMove)
	}
	for i, s := range og.Seats {
		if s.Person != players[i] || s.Role != g.Seats[i].Role || s.Out != g.Seats[i].Out || s.OutRound != g.Seats[i].OutRound {
			t.Errorf("our own seat %d: %+v, want person %s and the game's %+v", i+1, s, players[i], g.Seats[i])
		}
	}
	for _, e := range og.Extra {
		if extras[e.Seat] != e.Points {
			t.Errorf("our own extra of seat %d: %v, want %v", e.Seat, e.Points, extras[e.Seat])
		}
	}
	if len(og.Extra) != len(extras) || len(own.Game.Points) != len(players) {
		t.Errorf("our own: %d extras (want %d), %d points lines", len(og.Extra), len(extras), len(own.Game.Points))
	}
	for i, l := range own.Game.Points {
		if l.Total != want[players[i]] {
			t.Errorf("our own points of seat %d (%s): %v, by hand %v", i+1, players[i], l.Total, want[players[i]])
		}
	}

	// mafiaratings' games API: read as plain JSON, field by field.
	var mr struct {
		Format string
		Game   map[string]any
	}
	if code := do(t, "GET", table+"?format=mafiaratings", "", nil, &mr); code != http.StatusOK || mr.Format != "mafiaratings" {
		t.Fatalf("the mafiaratings export: %d %+v", code, mr)
	}
	winner := map[string]string{"town": "civ", "mafia": "maf"}[g.Winner]
	if mr.Game["id"] != id || mr.Game["winner"] != nilIfEmpty(winner) {
		t.Errorf("mafiaratings: id %v winner %v, want %s %s", mr.Game["id"], mr.Game["winner"], id, winner)
	}
	mrPlayers, _ := mr.Game["players"].([]any)
	if len(mrPlayers) != len(g.Seats) {
		t.Fatalf("mafiaratings: %d players", len(mrPlayers))
	}
	roles := map[string]string{"citizen": "civ", "doctor": "civ", "detective": "srf", "mafia": "maf", "don": "don"}
	for i, x := range mrPlayers {
		p := x.(map[string]any)
		s := g.Seats[i]
		if p["nick_name"] != s.Name || p["role"] != nilIfEmpty(roles[s.Role]) {
			t.Errorf("mafiaratings player %d: %v, want %s as %s", i+1, p, s.Name, roles[s.Role])
		}
		dt := map[string]string{"night": "night", "vote": "day", "all": "day", "fouls": "warning"}[s.Out]
		if p["death_type"] != nilIfEmpty(dt) {
			t.Errorf("mafiaratings player %d: death_type %v, want %q (out %q)", i+1, p["death_type"], dt, s.Out)
		}
		if s.OutRound > 0 && p["death_round"] != float64(s.OutRound-1) || s.OutRound == 0 && p["death_round"] != nil {
			t.Errorf("mafiaratings player %d: death_round %v, out in round %d", i+1, p["death_round"], s.OutRound)
		}
		if s.Seat == g.BestMove.Seat && p["mafs_guessed"] != float64(g.BestMoveRight(*g.BestMove)) || s.Seat != g.BestMove.Seat && p["mafs_guessed"] != nil {
			t.Errorf("mafiaratings player %d: mafs_guessed %v", i+1, p["mafs_guessed"])
		}
	}

	// Polemica's game: the tournament's name, the round as the game's
	// number, the table's, the seats by position.
	var pm struct {
		Format string
		Game   map[string]any
	}
	if code := do(t, "GET", table+"?format=polemica", "", nil, &pm); code != http.StatusOK || pm.Format != "polemica" {
		t.Fatalf("the Polemica export: %d %+v", code, pm)
	}
	wantName := g.Name
	if wantName == "" {
		wantName = name
	}
	result := map[string]any{"town": float64(0), "mafia": float64(1)}[g.Winner]
	if pm.Game["name"] != wantName || pm.Game["num"] != float64(1) || pm.Game["table"] != float64(1) ||
		pm.Game["started"] != g.Date+"T00:00:00.000" || pm.Game["result"] != result || g.Date == "" {
		t.Errorf("Polemica: %v; want name %q, num 1, table 1, started %sT00:00:00.000, result %v", pm.Game, wantName, g.Date, result)
	}
	pmPlayers, _ := pm.Game["players"].([]any)
	if len(pmPlayers) != len(g.Seats) {
		t.Fatalf("Polemica: %d players", len(pmPlayers))
	}
	proles := map[string]float64{"don": 0, "mafia": 1, "citizen": 2, "doctor": 2, "detective": 3}
	for i, x := range pmPlayers {
		p := x.(map[string]any)
		s := g.Seats[i]
		r, known := proles[s.Role]
		if p["position"] != float64(s.Seat) || p["username"] != s.Name || known && p["role"] != r || !known && p["role"] != nil {
			t.Errorf("Polemica player %d: %v, want %s as %s", i+1, p, s.Name, s.Role)
		}
		guess, _ := p["guess"].(map[string]any)
		if s.Seat == g.BestMove.Seat {
			var mafs []int
			for _, m := range guess["mafs"].([]any) {
				mafs = append(mafs, int(m.(float64)))
			}
			if !slices.Equal(mafs, g.BestMove.Guess) {
				t.Errorf("Polemica: the best move's mafs %v, want %v", mafs, g.BestMove.Guess)
			}
			for _, m := range mafs {
				if !mafia(g.Seats[m-1].Role) {
					t.Errorf("Polemica: the best move names seat %d, a %s", m, g.Seats[m-1].Role)
				}
			}
		} else if guess != nil {
			t.Errorf("Polemica player %d has a guess: %v", i+1, guess)
		}
	}

	// The tournament's games: the same game in each format.
	for _, f := range []struct {
		format string
		one    any
	}{{"", own.Game}, {"mafiaratings", mr.Game}, {"polemica", pm.Game}} {
		var all struct {
			Format, Tournament string
			Games              []map[string]any
		}
		url := base + "/games.json"
		if f.format != "" {
			url += "?format=" + f.format
		}
		if code := do(t, "GET", url, "", nil, &all); code != http.StatusOK || len(all.Games) != 1 || all.Tournament == "" {
			t.Fatalf("the tournament's games (%q): %d, %d games", f.format, code, len(all.Games))
		}
		if f.format == "" && all.Format != "mafia" || f.format != "" && all.Format != f.format {
			t.Errorf("the tournament's games: format %q, asked %q", all.Format, f.format)
		}
	}

	// Refusals: an unknown format names itself, a table without a game is
	// not found, a table that is no number is refused.
	var no refusal
	if code := do(t, "GET", table+"?format=xml", "", nil, &no); code != http.StatusBadRequest || no.Error.Code != "bad_club" || !strings.Contains(no.Error.Message, "xml") {
		t.Errorf("format xml: %d %+v", code, no)
	}
	if code := do(t, "GET", base+"/games.json?format=xml", "", nil, &no); code != http.StatusBadRequest || no.Error.Code != "bad_club" {
		t.Errorf("the tournament's games as xml: %d %+v", code, no)
	}
	if code := do(t, "GET", base+"/rounds/2/tables/1/export.json", "", nil, &no); code != http.StatusNotFound {
		t.Errorf("round 2, which has none: %d %+v", code, no)
	}
	if code := do(t, "GET", base+"/rounds/x/tables/1/export.json", "", nil, &no); code != http.StatusBadRequest || no.Error.Code != "bad_tournament" {
		t.Errorf("round x: %d %+v", code, no)
	}

	// The tournament's page links the table's game and the tournament's
	// games in each format.
	res, err := http.Get(page)
	if err != nil {
		t.Fatal(err)
	}
	html, _ := io.ReadAll(res.Body)
	res.Body.Close()
	path := strings.TrimPrefix(base, base[:strings.Index(base, "/host/")])
	for _, href := range []string{
		path + "/rounds/1/tables/1/export.json", path + "/rounds/1/tables/1/export.json?format=mafiaratings",
		path + "/rounds/1/tables/1/export.json?format=polemica",
		path + "/games.json", path + "/games.json?format=mafiaratings", path + "/games.json?format=polemica",
	} {
		if !strings.Contains(string(html), `href="`+href+`"`) {
			t.Errorf("the tournament's page does not link %s", href)
		}
	}
}

// nilIfEmpty is what a JSON field left out reads as: nil for "".
func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}
