package hosttest

import (
	"context"
	"encoding/json"
	"fmt"
	"mafia/assist/record"
	"mafia/engine"
	"mafia/store"
	"mafia/wire"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Host is the host's phone running the assistant.
type Host struct {
	*Tab
	Ts        *Server
	DeadWakes int // wakes of cards out of the game
}

// OpenHost opens the assistant on a 360 px phone and waits for the engine.
func OpenHost(t *testing.T, ts *Server, name string, opts ...chromedp.ContextOption) *Host {
	t.Helper()
	tb := NewTab(t, name, 360, 740, opts...)
	tb.Do(30*time.Second, chromedp.Navigate(ts.URL+"/host/"))
	tb.WaitJS(30*time.Second, `window.__assistReady === true`)
	return &Host{Tab: tb, Ts: ts}
}

// Home goes back to the home screen in place (the page stays: a fresh
// page costs more than a game's screens) and waits for it.
func (h *Host) Home() {
	h.t.Helper()
	Eval[bool](h.Tab, `(() => { location.hash = '#/'; return true; })()`)
	h.WaitJS(10*time.Second, `!!document.querySelector('[data-t="new-game"]')`)
}

// GameSpec is what the setup screen is given.
type GameSpec struct {
	Names   []string
	Roles   []string          // for a deal by hand (and custom setups)
	Custom  map[string]int    // role counts for a custom setup
	Options map[string]string // house rules
	Deal    string            // links, pass, manual
	Timings map[string]int    // seconds
	Double  bool              // "Create" is double-tapped
}

// Create fills the setup screen and creates the game; it returns the id.
func (h *Host) Create(g GameSpec) string {
	h.t.Helper()
	h.Tap("new-game")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="create"]')`)
	if g.Custom != nil {
		h.Tap("size-custom")
		for r, n := range g.Custom {
			h.SetValue(`[data-t="count-`+r+`"]`, strconv.Itoa(n))
		}
	} else {
		h.Tap("size-" + strconv.Itoa(len(g.Names)))
	}
	h.Click(`[data-t="deal-` + g.Deal + `"]`)
	for i, n := range g.Names {
		h.SetValue(`[data-t="name-`+strconv.Itoa(i+1)+`"]`, n)
		if g.Deal == record.DealManual {
			h.SetValue(`[data-t="role-`+strconv.Itoa(i+1)+`"]`, g.Roles[i])
		}
	}
	for k, v := range g.Options {
		h.SetValue(`[data-t="opt-`+k+`"]`, v)
	}
	for k, v := range g.Timings {
		h.SetValue(`[data-t="time-`+k+`"]`, strconv.Itoa(v))
	}
	if g.Double {
		h.DoubleTap(`[data-t="create"]`)
	} else {
		h.Tap("create")
	}
	h.WaitJS(10*time.Second, `location.hash.startsWith('#/game/') && !!window.__assistGame && location.hash === '#/game/' + window.__assistGame.rec.id`)
	return strings.TrimPrefix(Eval[string](h.Tab, `location.hash`), "#/game/")
}

// SetValue sets an input's or a select's value as a person would, firing
// input and change events (the screens redraw on change).
func (h *Host) SetValue(sel, v string) {
	h.t.Helper()
	h.WaitJS(5*time.Second, fmt.Sprintf(`!!document.querySelector(%q)`, sel))
	js := fmt.Sprintf(`(() => { const el = document.querySelector(%q); el.value = %q;
		el.dispatchEvent(new Event('input', {bubbles: true})); el.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`, sel, v)
	Eval[bool](h.Tab, js)
}

// State is the game's state as the page holds it.
func (h *Host) State() record.State {
	h.t.Helper()
	s := Eval[string](h.Tab, `JSON.stringify(window.__assistGame.state)`)
	var st record.State
	if err := json.Unmarshal([]byte(s), &st); err != nil {
		h.t.Fatal(err)
	}
	return st
}

// screenJS is an expression that is what the page shows now (Screen).
const screenJS = `(() => {
		const q = (s) => document.querySelector(s);
		if (q('[data-t="announce"]')) return 'announce';
		if (q('[data-t="start-night"]') || q('[data-t="reveal"]') || q('[data-t="hide"]')) return 'deal';
		if (q('[data-t="result"]')) return 'result';
		const w = q('[data-t="wake"]');
		if (w) return 'wake:' + w.dataset.role;
		if (q('[data-t="morning"]')) return 'morning';
		const p = q('[data-t="phase"]');
		if (p) return p.dataset.phase;
		return 'other';
	})()`

// Screen returns what the page shows now: "announce", "deal", a wake
// ("wake:don"), "morning", a phase of the day, or "result".
func (h *Host) Screen() string { return Eval[string](h.Tab, screenJS) }

// ScreenAndState returns Screen and, but on the result's screen, State,
// read in one evaluation (Play reads both before each step).
func (h *Host) ScreenAndState() (string, record.State) {
	h.t.Helper()
	v := Eval[[]string](h.Tab, `(() => { const s = `+screenJS+`;
		return [s, s === 'result' ? '' : JSON.stringify(window.__assistGame.state)]; })()`)
	var st record.State
	if v[0] != "result" {
		if err := json.Unmarshal([]byte(v[1]), &st); err != nil {
			h.t.Fatal(err)
		}
	}
	return v[0], st
}

// PickSeat taps a seat in the grid on the screen.
func (h *Host) PickSeat(s int) {
	h.t.Helper()
	h.Click(`.seats [data-seat="` + strconv.Itoa(s) + `"]`)
}

// DoubleTap taps the element sel finds twice at its centre, as a double
// tap does: two presses in a row at one point, the second with a click
// count of 2, with nothing in between (the page draws whatever the first
// tap does before the second press, as on a phone).
func (h *Host) DoubleTap(sel string) {
	h.t.Helper()
	h.WaitJS(5*time.Second, `!!document.querySelector(`+JsString(sel)+`)`)
	xy := Eval[[]float64](h.Tab, `(() => {
		const el = document.querySelector(`+JsString(sel)+`);
		let r = el.getBoundingClientRect();
		if (r.bottom > innerHeight || r.top < 0) { el.scrollIntoView({block: 'center'}); r = el.getBoundingClientRect(); }
		return [r.x + r.width / 2, r.y + r.height / 2];
	})()`)
	h.Do(5*time.Second, MouseTap(xy[0], xy[1], 1), MouseTap(xy[0], xy[1], 2))
	h.Settle()
}

// EntryCount is how many entries the page's game holds.
func (h *Host) EntryCount() int { return Eval[int](h.Tab, `window.__assistGame.rec.commands.length`) }

// Calm checks that the page shows no refusal: a tap that did nothing says
// nothing alarming.
func (h *Host) Calm(what string) {
	h.t.Helper()
	if Eval[bool](h.Tab, `(() => { const t = document.getElementById('toast'); return !!t && t.classList.contains('show') && t.classList.contains('error'); })()`) {
		h.t.Errorf("%s: the page shows a refusal: %s", what, Eval[string](h.Tab, `document.getElementById('toast').textContent`))
	}
}

// TouchAt returns the centre of the element sel finds (scrolled into view).
func (h *Host) TouchAt(sel string) []float64 {
	h.t.Helper()
	h.WaitJS(5*time.Second, `!!document.querySelector(`+JsString(sel)+`)`)
	return Eval[[]float64](h.Tab, `(() => {
		const el = document.querySelector(`+JsString(sel)+`);
		let r = el.getBoundingClientRect();
		if (r.bottom > innerHeight || r.top < 0) { el.scrollIntoView({block: 'center'}); r = el.getBoundingClientRect(); }
		return [r.x + r.width / 2, r.y + r.height / 2];
	})()`)
}

// Value returns the value of the input or select sel finds.
func (h *Host) Value(sel string) string {
	h.t.Helper()
	h.WaitJS(5*time.Second, `!!document.querySelector(`+JsString(sel)+`)`)
	return Eval[string](h.Tab, `document.querySelector(`+JsString(sel)+`).value`)
}

// Clean fails when the page shows a message id (a message missing from the
// catalog) or a template's leftovers.
func (h *Host) Clean(where string) {
	h.t.Helper()
	txt := h.Text()
	for _, bad := range []string{"assist.", "{{", "}}", "<no value>", "undefined", "NaN", "[object"} {
		if strings.Contains(txt, bad) {
			h.t.Fatalf("%s: the page shows %q:\n%s", where, bad, txt)
		}
	}
}

// CreateFromHere fills the names on an open setup screen (its size chosen)
// and creates the game.
func (h *Host) CreateFromHere(names []string, deal string) string {
	h.t.Helper()
	h.Click(`[data-t="deal-` + deal + `"]`)
	for i, n := range names {
		h.SetValue(fmt.Sprintf(`[data-t="name-%d"]`, i+1), n)
	}
	h.Tap("create")
	h.WaitJS(10*time.Second, `location.hash.startsWith('#/game/')`)
	return strings.TrimPrefix(Eval[string](h.Tab, `location.hash`), "#/game/")
}

// UndoLast takes back the last entry through the confirmation, from the
// toolbar's button (or the menu's); it returns the sentences the
// confirmation named.
func (h *Host) UndoLast(viaMenu bool) []string {
	h.t.Helper()
	before := Eval[int](h.Tab, `window.__assistGame.rec.commands.length`)
	if viaMenu {
		h.Tap("menu")
		h.Tap("menu-undo")
	} else {
		h.Tap("undo")
	}
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="confirm-undo"]')`)
	lines := Eval[[]string](h.Tab, `Array.from(document.querySelectorAll('[data-t="undo-lines"] li'), (l) => l.textContent)`)
	if len(lines) == 0 {
		h.t.Fatalf("the confirmation names nothing:\n%s", h.Text())
	}
	h.Tap("confirm-undo")
	h.Settle()
	if after := Eval[int](h.Tab, `window.__assistGame.rec.commands.length`); after != before+1 {
		h.t.Fatalf("an undo made %d entries", after-before)
	}
	return lines
}

// Reload reloads the tab and waits for the page and the game on it.
func (h *Host) Reload(game bool) {
	h.t.Helper()
	h.Do(30*time.Second, chromedp.Reload())
	want := `window.__assistReady === true`
	if game {
		want += ` && !!window.__assistGame`
	}
	h.WaitJS(30*time.Second, want)
}

// SameScreen checks that the page shows what it showed before a reload.
func (h *Host) SameScreen(screen string, st record.State, entries int) {
	h.t.Helper()
	if got := h.Screen(); got != screen {
		h.t.Fatalf("after a reload the page shows %q, before %q:\n%s", got, screen, h.Text())
	}
	after := h.State()
	if after.Phase != st.Phase || after.Round != st.Round || after.Speaker != st.Speaker ||
		!slices.Equal(after.Alive, st.Alive) || !slices.Equal(after.Candidates, st.Candidates) {
		h.t.Fatalf("after a reload: %+v, before %+v", after, st)
	}
	if got := Eval[int](h.Tab, `window.__assistGame.rec.commands.length`); got != entries {
		h.t.Fatalf("after a reload the phone holds %d entries, before %d", got, entries)
	}
}

// SameEntries checks that the server holds exactly the phone's entries,
// each once, and that its log is their replay.
func SameEntries(t *testing.T, ts *Server, h *Host, id string) {
	t.Helper()
	local, stored := h.LocalEntries(id), ts.StoredEntries(t, id)
	if len(local) != len(stored) {
		t.Fatalf("the phone holds %d entries, the server %d", len(local), len(stored))
	}
	for i := range local {
		if local[i].ID != stored[i].ID || local[i].Seq != i || stored[i].Seq != i || local[i].Verb != stored[i].Verb {
			t.Fatalf("entry %d: phone %+v, server %+v", i, local[i], stored[i])
		}
	}
	ts.Replay(t, id) // fails on an entry stored twice, or a log that is not the entries'
}

// EvalAwait evaluates a JavaScript expression and waits for its promise.
func EvalAwait[T any](tb *Tab, expr string) T {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.Ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.t.Fatalf("%s: eval %s: %v\npage:\n%s", tb.name, expr, err, tb.Text())
	}
	return v
}

// JsString writes s as a JavaScript string literal.
func JsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Names11 are eleven players' names.
var Names11 = []string{"Nino", "Giorgi", "Tamar", "Levan", "Ana", "Dato", "Eka", "Irakli", "Salome", "Zura", "Keti"}

// CheckClock checks the speech clock: the signal at 10 s left, pause and
// resume, and the signal at 0.
func (h *Host) CheckClock() {
	h.t.Helper()
	h.WaitJS(5*time.Second, `(window.__assistBeeps || []).includes('warn')`)
	h.Tap("pause")
	before := Eval[string](h.Tab, `document.querySelector('[data-t="clock"]').textContent`)
	time.Sleep(1500 * time.Millisecond)
	if after := Eval[string](h.Tab, `document.querySelector('[data-t="clock"]').textContent`); after != before {
		h.t.Fatalf("the paused clock moved from %s to %s", before, after)
	}
	h.Tap("pause") // resume
	h.WaitJS(15*time.Second, `(window.__assistBeeps || []).includes('end')`)
	if got := Eval[string](h.Tab, `document.querySelector('[data-t="clock"]').textContent`); got != "0:00" {
		h.t.Fatalf("the clock shows %s at the end", got)
	}
}

// Replay rebuilds the server's game from the store: the stored entries
// replayed through a fresh engine must give the stored log.
func (ts *Server) Replay(t *testing.T, id string) (*engine.Game, []engine.Event) {
	t.Helper()
	ctx := context.Background()
	tbl, _, err := ts.DB.Table(ctx, store.KindInPerson, id)
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		InPerson struct {
			Settings record.Settings
			Commands []record.Command
		} `json:"in_person"`
	}
	if err := json.Unmarshal(tbl.Data, &c); err != nil {
		t.Fatal(err)
	}
	g, log, err := record.Replay(&c.InPerson.Settings, c.InPerson.Commands)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := ts.DB.Events(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) != len(log) {
		t.Fatalf("the store has %d events, the entries give %d", len(stored), len(log))
	}
	for i := range stored {
		a, _ := json.Marshal(wire.FromEvent(stored[i], g.Players()))
		b, _ := json.Marshal(wire.FromEvent(log[i], g.Players()))
		if string(a) != string(b) {
			t.Fatalf("event %d: stored %s, replayed %s", i, a, b)
		}
	}
	if seen := map[string]bool{}; true {
		for _, cmd := range c.InPerson.Commands {
			if seen[cmd.ID] {
				t.Fatalf("entry %s is stored twice", cmd.ID)
			}
			seen[cmd.ID] = true
		}
	}
	return g, log
}

// CheckLog compares exported events with the engine's log.
func CheckLog(t *testing.T, got []wire.Event, log []engine.Event) {
	t.Helper()
	if len(got) != len(log) {
		t.Fatalf("the protocol has %d events, the engine's log %d", len(got), len(log))
	}
	players := 0
	for i := range log {
		if log[i].Kind == engine.EvGameStarted {
			players = int(log[i].Count)
		}
		a, _ := json.Marshal(got[i])
		b, _ := json.Marshal(wire.FromEvent(log[i], players))
		if string(a) != string(b) {
			t.Fatalf("event %d: protocol %s, engine %s", i, a, b)
		}
	}
}

// Sorted returns a sorted copy of s.
func Sorted(s []int) []int {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// Exported is the protocol as GET .../protocol.json answers it.
type Exported struct {
	ID string `json:"id"`
	record.Protocol
}

// Token is the host token the phone keeps for a game.
func (h *Host) Token(id string) string {
	h.t.Helper()
	var rec struct{ Token string }
	if err := json.Unmarshal([]byte(h.StoredRecord(id)), &rec); err != nil {
		h.t.Fatal(err)
	}
	return rec.Token
}

// StoredRecord returns game id's record as the phone's storage (IndexedDB)
// holds it, as JSON text ("" for none).
func (h *Host) StoredRecord(id string) string {
	h.t.Helper()
	return EvalAwait[string](h.Tab, `new Promise((resolve, reject) => {
		const r = indexedDB.open('assist');
		r.onerror = () => reject(r.error);
		r.onsuccess = () => {
			const db = r.result;
			if (!db.objectStoreNames.contains('games')) { db.close(); resolve(''); return; }
			const q = db.transaction('games').objectStore('games').get(`+JsString(id)+`);
			q.onsuccess = () => { db.close(); resolve(q.result ? JSON.stringify(q.result) : ''); };
			q.onerror = () => reject(q.error);
		};
	})`)
}

// GetJSON reads the JSON answer of path (with token, if any) into v.
func (ts *Server) GetJSON(t *testing.T, path, token string, v any) {
	t.Helper()
	req, _ := http.NewRequest("GET", ts.URL+path, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("GET %s: %s", path, res.Status)
	}
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

// Protocol reads game id's protocol as JSON with h's token.
func (ts *Server) Protocol(t *testing.T, h *Host, id string) *Exported {
	t.Helper()
	var p Exported
	ts.GetJSON(t, "/host/api/games/"+id+"/protocol.json", h.Token(id), &p)
	return &p
}

// Csv reads game id's protocol as CSV with h's token.
func (ts *Server) Csv(t *testing.T, h *Host, id string) [][]string {
	t.Helper()
	req, _ := http.NewRequest("GET", ts.URL+"/host/api/games/"+id+"/protocol.csv", nil)
	req.Header.Set("Authorization", "Bearer "+h.Token(id))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	return ReadCSV(t, res.Body)
}

// PrintPage opens the printable protocol in the host's tab and shoots it.
func (h *Host) PrintPage(id, shot string) {
	h.t.Helper()
	h.Do(10*time.Second, Navigate(h.Ts.URL+"/host/games/"+id))
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="winner"]')`)
	h.Shot(shot)
}

// StoredEntries returns the entries the server holds for a game.
func (ts *Server) StoredEntries(t *testing.T, id string) []record.Command {
	t.Helper()
	tbl, _, err := ts.DB.Table(context.Background(), store.KindInPerson, id)
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		InPerson struct{ Commands []record.Command } `json:"in_person"`
	}
	if err := json.Unmarshal(tbl.Data, &c); err != nil {
		t.Fatal(err)
	}
	return c.InPerson.Commands
}

// LocalEntries returns the entries the phone holds for a game.
func (h *Host) LocalEntries(id string) []record.Command {
	h.t.Helper()
	var rec struct{ Commands []record.Command }
	if err := json.Unmarshal([]byte(h.StoredRecord(id)), &rec); err != nil {
		h.t.Fatal(err)
	}
	return rec.Commands
}

// Itoa writes n in decimal.
func Itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
