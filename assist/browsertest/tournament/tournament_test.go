package tournament

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/club"
	"mafia/tournament"
)

// layout is every game's deal, entered by hand on the setup screen: the
// Don at 2, the mafiosi at 4 and 8, the detective at 5, the doctor at 6.
var layout = []string{"citizen", "don", "citizen", "mafia", "detective", "doctor", "citizen", "mafia", "citizen", "citizen"}

func bad(st record.State, s int) bool { return st.Roles[s] == "mafia" || st.Roles[s] == "don" }

// townDriver: each night the mafia kill the first town player (seat 1 on
// the first: the first killed), the detective checks the first town
// player, the others skip; each day the speakers nominate a mafioso and
// every hand goes up. The town wins.
func townDriver() hosttest.Driver {
	return hosttest.Driver{
		Night: func(st record.State, w record.Wake) int {
			if w.Role != "mafia" && w.Role != "detective" {
				return 0
			}
			for _, s := range w.Targets {
				if !bad(st, s) {
					return s
				}
			}
			return 0
		},
		Nominate: func(st record.State) int {
			if len(st.Candidates) > 0 {
				return 0
			}
			for _, s := range st.Nominate {
				if bad(st, s) {
					return s
				}
			}
			return 0
		},
		Hands: func(st record.State, cand int) []int { return st.Pending },
	}
}

// mafiaDriver: as townDriver, but each day the speakers nominate a town
// player. The mafia win at parity.
func mafiaDriver() hosttest.Driver {
	d := townDriver()
	d.Nominate = func(st record.State) int {
		if len(st.Candidates) > 0 {
			return 0
		}
		for _, s := range st.Nominate {
			if !bad(st, s) {
				return s
			}
		}
		return 0
	}
	return d
}

// The hand-written scoring (docs/club.md, the club's default), in
// hundredths, and the final's factor.
const (
	handWin       = 100
	handBestMove2 = 25
	handBestMove3 = 50
	handFactor    = 150
)

type tournamentAnswer struct {
	tournament.Tournament
	Names map[string]string
	Setup [][]string
}

// handRow is one player's line of the standings as the test counts it.
type handRow struct {
	place                   int
	person, name            string
	finalist                bool
	points, qualifying, fin club.Points
	games, wins             int
	bestMove, extra         club.Points
}

func handTimes(p club.Points) club.Points {
	x := int(p) * handFactor
	if x < 0 {
		return -club.Points((-x + 50) / 100)
	}
	return club.Points((x + 50) / 100)
}

// handOrder orders rows by points, then the declared tie-breaks (the best
// move's points, wins, extras; nobody is removed by fouls here), the
// finalists first when final; equal rows share a place, by name within it.
func handOrder(rows []*handRow, final bool) {
	key := func(r *handRow) []int {
		fin := 0
		if final && r.finalist {
			fin = 1
		}
		return []int{fin, int(r.points), int(r.bestMove), r.wins, int(r.extra)}
	}
	slices.SortFunc(rows, func(a, b *handRow) int {
		if c := slices.Compare(key(b), key(a)); c != 0 {
			return c
		}
		return cmp.Compare(a.name, b.name)
	})
	for i, r := range rows {
		r.place = i + 1
		if i > 0 && slices.Equal(key(r), key(rows[i-1])) {
			r.place = rows[i-1].place
		}
	}
}

// entry is one of the host's entries as the page's engine takes it.
type entry struct {
	Verb   string `json:"verb"`
	By     int    `json:"by,omitempty"`
	Target int    `json:"target,omitempty"`
	Yes    bool   `json:"yes,omitempty"`
}

// TestATwentyPlayerTournamentOnTheAssistant_MatchesTheHandComputation: the
// issue's tournament at real tables. A club of twenty on the roster; the
// organiser makes a tournament of two tables, ten rounds and a final for
// the top ten at ×1.5, tie-breaks declared (the best move's points, wins,
// extras). On one phone at 360×740, for each of the 22 tables in turn, the
// host opens the tournament's page, taps that round's table's link, finds
// the table's ten players seated from the roster, enters the deal by hand
// (the same cards every game) and taps Create: the game is linked to its
// round's table. Then the game is entered and synced:
//
//   - round 1's table 1 (the town wins), round 1's table 2 (the mafia win)
//     and the final (the town wins) are played on the assistant's screens,
//     tap by tap (hosttest.Host.Play);
//   - the other 19 games enter the same entries as the round-1 game of
//     their kind (tables 1 and 2 alternate the kinds round by round) through
//     the page's own engine call that every tap makes (Game.do), one entry
//     a call, so each is kept on the phone and synced as a tap's is: this
//     keeps the package within a few minutes and is the only shortcut.
//
// On the result screen the host enters the best move of the first night's
// victim (seat 1) in rounds 3 (three right) and 6 (two right) and in the
// final (three right), and extras in round 2 and the final. The final is
// seated by the organiser (naming the ten when the tenth place is shared).
// The tournament's page, read in the browser, and the standings' JSON
// match a hand computation from the seating, the games' winners, the deal,
// the best moves and the extras entered.
func TestATwentyPlayerTournamentOnTheAssistant_MatchesTheHandComputation(t *testing.T) {
	began := time.Now()
	ts := hosttest.StartServer(t)
	var names []string
	for i := 1; i <= 20; i++ {
		names = append(names, fmt.Sprintf("Player %02d", i))
	}
	c, people := hosttest.NewClubWith(t, ts, names...)
	var ids []string
	for _, p := range people {
		ids = append(ids, p.ID)
	}
	base := ts.URL + "/host/api/clubs/" + c.ID + "/tournaments"
	var tr tournamentAnswer
	if code := hosttest.Call(t, "POST", base, c.Token, map[string]any{"name": "Winter cup", "from": "2026-12-06", "to": "2026-12-06",
		"players": ids, "tables": 2, "games": 10, "seed": 29, "final": map[string]any{"size": 10, "games": 1, "factor": 1.5},
		"tie_breaks": []string{"best_move", "wins", "extra"}}, &tr); code != http.StatusCreated {
		t.Fatalf("make the tournament: %d", code)
	}
	base += "/" + tr.ID
	if code := hosttest.Call(t, "POST", base+"/rounds", c.Token, nil, &tr); code != http.StatusOK || len(tr.Rounds) != 10 {
		t.Fatalf("seat the rounds: %d", code)
	}
	page := ts.URL + "/host/clubs/" + c.ID + "/tournaments/" + tr.ID + "?lang=en"

	h := hosttest.OpenHost(t, ts, "host")
	keep, _ := json.Marshal(map[string]string{"id": c.ID, "token": c.Token, "name": c.Name})
	hosttest.Eval[bool](h.Tab, `(() => { localStorage.setItem('assist.club', `+strconv.Quote(string(keep))+`); return true; })()`)

	townWins := func(r, n int) bool { return (r+n)%2 == 0 } // round 1's table 1: the town
	bestMoves := map[[2]int][]int{{3, 1}: {2, 4, 8}, {6, 2}: {2, 4, 3}, {11, 1}: {2, 4, 8}}
	extras := map[[2]int]map[int]club.Points{{2, 1}: {1: 30, 5: -20}, {11, 1}: {4: 30, 9: -10}}
	played := map[bool][]entry{}  // the entries of the game of each kind played tap by tap
	winner := map[bool]string{}   // and its result
	games := map[[2]int]string{}  // each table's game
	var tapped, replayed []string // which tables were played how

	play := func(r, n int, players []string) {
		t.Helper()
		start := time.Now()
		defer func() { t.Logf("round %d table %d: %v", r, n, time.Since(start).Round(100*time.Millisecond)) }()
		// The tournament's page: that round's table's link, tapped.
		h.Do(30*time.Second, chromedp.Navigate(page))
		h.WaitJS(10*time.Second, `document.querySelectorAll('[data-t="round"]').length >= `+strconv.Itoa(r))
		link := hosttest.Eval[string](h.Tab, fmt.Sprintf(`(() => {
			const a = document.querySelectorAll('[data-t="round"]')[%d].querySelectorAll('[data-t="table"]')[%d].querySelector('a[data-t="setup"]');
			if (!a) return '';
			a.dataset.pick = 'yes';
			return a.getAttribute('href');
		})()`, r-1, n-1))
		if link != tr.Setup[r-1][n-1] {
			t.Fatalf("round %d table %d's link on the page: %q, want %q", r, n, link, tr.Setup[r-1][n-1])
		}
		h.Click(`a[data-pick="yes"]`)
		// The assistant's setup, once the link's page has loaded (a poll
		// begun before would run in the tournament page's context).
		h.Do(30*time.Second, chromedp.Query(chromedp.CSS(`[data-t="name-10"]`), chromedp.NodeVisible))
		want, _ := json.Marshal(tr.Names[players[9]])
		h.WaitJS(30*time.Second, `window.__assistReady === true && (() => { const i = document.querySelector('[data-t="name-10"]'); return !!i && i.value === `+string(want)+`; })()`)
		seated := hosttest.Eval[[]string](h.Tab, `[...Array(10).keys()].map((i) => document.querySelector('[data-t="name-' + (i + 1) + '"]').dataset.person || '')`)
		if !slices.Equal(seated, players) {
			t.Fatalf("round %d table %d seats %v, the seating %v", r, n, seated, players)
		}
		h.Click(`[data-t="deal-manual"]`)
		for s, role := range layout {
			h.SetValue(`[data-t="role-`+strconv.Itoa(s+1)+`"]`, role)
		}
		h.Tap("create")
		h.WaitJS(30*time.Second, `location.hash.startsWith('#/game/') && !!window.__assistGame && location.hash === '#/game/' + window.__assistGame.rec.id`)
		id := hosttest.Eval[string](h.Tab, `window.__assistGame.rec.id`)
		games[[2]int{r, n}] = id

		town := r <= 10 && townWins(r, n) || r == 11
		if _, ok := played[town]; !ok || r == 11 {
			d := mafiaDriver()
			if town {
				d = townDriver()
			}
			h.Play(d)
			var es []entry
			if err := json.Unmarshal([]byte(hosttest.Eval[string](h.Tab, `JSON.stringify(window.__assistGame.rec.commands)`)), &es); err != nil {
				t.Fatal(err)
			}
			if r != 11 {
				played[town], winner[town] = es, h.State().Winner
			}
			tapped = append(tapped, fmt.Sprintf("%d/%d", r, n))
		} else {
			cmds, _ := json.Marshal(played[town])
			ctx, cancel := context.WithTimeout(h.Ctx, hosttest.Slack*60*time.Second)
			got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(async () => {
				const g = window.__assistGame;
				for (const c of `+string(cmds)+`) {
					if (!(await g.do([c]))) return 'refused ' + JSON.stringify(c) + ' at entry ' + g.rec.commands.length;
				}
				return g.state.winner || 'no winner';
			})()`, chromedp.EvalAwaitPromise))
			cancel()
			if err != nil || got != winner[town] {
				t.Fatalf("round %d table %d entered as round 1's: %q, %v; want %q", r, n, got, err, winner[town])
			}
			replayed = append(replayed, fmt.Sprintf("%d/%d", r, n))
			// The last entry's announcement, read and tapped away.
			for h.Screen() == "announce" {
				h.Tap("continue")
				h.Settle()
			}
		}
		h.WaitJS(10*time.Second, `!!document.querySelector('[data-t="result"]') && !!document.querySelector('[data-t="score"]')`)
		if g := bestMoves[[2]int{r, n}]; g != nil {
			for _, s := range g {
				h.Tap("guess-" + strconv.Itoa(s))
			}
		}
		if x := extras[[2]int{r, n}]; x != nil {
			for s, p := range x {
				h.SetValue(`[data-t="extra-`+strconv.Itoa(s)+`"]`, p.String())
			}
		}
		if bestMoves[[2]int{r, n}] != nil || extras[[2]int{r, n}] != nil {
			h.Tap("save-score")
			h.WaitJS(10*time.Second, `(document.querySelector('[data-t="score"]') || {dataset: {}}).dataset.saved === 'yes'`)
		}
		h.WaitJS(hosttest.SyncWait, `document.getElementById('sync').dataset.waiting === '0'`)
	}

	for r := 1; r <= 10; r++ {
		for n := 1; n <= 2; n++ {
			play(r, n, tr.Rounds[r-1].Tables[n-1].Players)
		}
	}
	if winner[true] != "town" || winner[false] != "mafia" {
		t.Fatalf("the games played tap by tap: %v", winner)
	}

	// The hand computation.
	rows := map[string]*handRow{}
	count := func(final bool) []*handRow {
		if code := hosttest.Call(t, "GET", base, "", nil, &tr); code != http.StatusOK {
			t.Fatalf("read the tournament: %d", code)
		}
		var out []*handRow
		for _, id := range ids {
			rows[id] = &handRow{person: id, name: tr.Names[id]}
			out = append(out, rows[id])
		}
		for r, round := range tr.Rounds {
			if round.Final && !final {
				continue
			}
			for n, tb := range round.Tables {
				if tb.Game != games[[2]int{r + 1, n + 1}] {
					t.Fatalf("round %d table %d linked to %q, made %q", r+1, n+1, tb.Game, games[[2]int{r + 1, n + 1}])
				}
				town := round.Final || townWins(r+1, n+1)
				guess := bestMoves[[2]int{r + 1, n + 1}]
				x := extras[[2]int{r + 1, n + 1}]
				for i, p := range tb.Players {
					row := rows[p]
					row.finalist = row.finalist || round.Final
					var pts, bm club.Points
					if won := (layout[i] == "mafia" || layout[i] == "don") != town; won {
						pts += handWin
						row.wins++
					}
					if i == 0 && guess != nil {
						right := 0
						for _, s := range guess {
							if layout[s-1] == "mafia" || layout[s-1] == "don" {
								right++
							}
						}
						bm = map[int]club.Points{2: handBestMove2, 3: handBestMove3}[right]
					}
					pts += bm + x[i+1]
					if round.Final {
						pts = handTimes(pts)
						row.fin += pts
					} else {
						row.qualifying += pts
					}
					row.points += pts
					row.bestMove += bm
					row.extra += x[i+1]
					row.games++
				}
			}
		}
		return out
	}
	order := count(false)
	handOrder(order, false)
	shared := order[10].place == order[9].place
	var finalists []string
	for _, r := range order[:10] {
		finalists = append(finalists, r.person)
	}
	body := map[string]any{}
	if shared {
		body["players"] = finalists
	}
	if code := hosttest.Call(t, "POST", base+"/final", c.Token, body, &tr); code != http.StatusOK || len(tr.Rounds) != 11 {
		t.Fatalf("seat the final (the tenth place shared: %v): %d", shared, code)
	}
	if got := slices.Sorted(slices.Values(tr.Rounds[10].Tables[0].Players)); !slices.Equal(got, slices.Sorted(slices.Values(finalists))) {
		t.Fatalf("the finalists %v, by hand %v", got, finalists)
	}
	play(11, 1, tr.Rounds[10].Tables[0].Players)

	order = count(true)
	handOrder(order, true)

	// The standings as the tournament's page shows them, in the browser.
	h.Do(30*time.Second, chromedp.Navigate(page))
	h.WaitJS(10*time.Second, `document.querySelectorAll('[data-t="standings"] tbody tr').length === 20`)
	shown := hosttest.Eval[[][]string](h.Tab, `[...document.querySelectorAll('[data-t="standings"] tbody tr')].map((tr) =>
		['place', 'name', 'points', 'final'].map((c) => tr.querySelector('td.c-' + c).textContent.trim()))`)
	for i, w := range order {
		want := []string{strconv.Itoa(w.place), w.name, w.points.String(), w.fin.String()}
		if !slices.Equal(shown[i], want) {
			t.Errorf("the page's row %d: %v, by hand %v", i+1, shown[i], want)
		}
	}
	var st struct{ Standings []tournament.Standing }
	if code := hosttest.Call(t, "GET", base+"/standings.json", "", nil, &st); code != http.StatusOK || len(st.Standings) != 20 {
		t.Fatalf("the standings: %d, %d rows", code, len(st.Standings))
	}
	for i, got := range st.Standings {
		w := order[i]
		if got.Place != w.place || got.Person != w.person || got.Finalist != w.finalist || got.Points != w.points ||
			got.Qualifying != w.qualifying || got.FinalPoints != w.fin || got.Games != w.games || got.Wins != w.wins ||
			got.BestMove != w.bestMove || got.Extra != w.extra {
			t.Errorf("row %d: %d %s %v, %v (%v + %v), %d games, %d wins, best move %v, extra %v\nby hand: %d %s %v, %v (%v + %v), %d games, %d wins, best move %v, extra %v",
				i+1, got.Place, got.Name, got.Finalist, got.Points, got.Qualifying, got.FinalPoints, got.Games, got.Wins, got.BestMove, got.Extra,
				w.place, w.name, w.finalist, w.points, w.qualifying, w.fin, w.games, w.wins, w.bestMove, w.extra)
		}
	}
	t.Logf("tap by tap: %v; entered through the page's engine call: %v; the tenth place shared: %v; %v in all",
		tapped, replayed, shared, time.Since(began).Round(time.Second))
}
