package review

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"mafia/assist/record"
	"mafia/engine"
	"mafia/internal/browsertest"
	"mafia/locale"
	"mafia/room"
	"mafia/web/internal/webtest"
	"mafia/wire"
)

// reviewShown is what the review page shows, read from its DOM.
type reviewShown struct {
	Winner string            `json:"winner"`
	Cards  map[string]string `json:"cards"` // seat → card
	Kinds  map[string]int    `json:"kinds"` // event kind → items
	Events int               `json:"events"`
	Groups []string          `json:"groups"`
	Chat   []string          `json:"chat"`
	URL    string            `json:"url"`
	Who    string            `json:"who"`
	Head   string            `json:"head"`
	Tally  []string          `json:"tally"` // each vote's "who voted for whom" lines
}

const readReview = `(() => {
  const q = (s) => document.querySelector(s);
  const all = (s) => [...document.querySelectorAll(s)];
  const kinds = {};
  for (const li of all('#rv-days li.ev')) kinds[li.dataset.kind] = (kinds[li.dataset.kind] || 0) + 1;
  const cards = {};
  for (const li of all('#rv-cards li')) cards[li.dataset.seat] = li.dataset.role;
  return {
    winner: q('#rv-winner').dataset.winner, cards, kinds, events: all('#rv-days li.ev').length,
    groups: all('#rv-days .rv-group').map((g) => g.dataset.group + g.dataset.round),
    chat: all('#rv-days li.chat').map((li) => li.dataset.channel + '|' + li.dataset.from + '|' + li.querySelector('.text').textContent),
    url: q('#rv-url').value, who: q('#rv-who').textContent, head: q('#rv-h').textContent,
    tally: all('#rv-days li.ev[data-kind=vote_closed] .line.sub').map((l) => l.textContent),
  };
})()`

// TestBrowserReviewOfABotGame: a bot game (the host's seat played from Go,
// then by a stand-in) at a private table; the host's phone (360x740, its
// seat's cookie) opens the review while the game goes on and sees that it
// is not over and nothing of the game; at the end the same page opens by
// itself and shows every seat's name and card, every event of the stored
// log night by night and day by day (the night actions and checks, each
// vote with who voted for whom), the host's chat line, the result, and the
// link to share with its QR code; in Georgian, English and Russian, with
// screenshots. Another phone, with no seat, is refused the private review.
func TestBrowserReviewOfABotGame(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	rt := webtest.NewReviewTable(ctx, t, ts, "Friday review", false)
	p := webtest.NewTab(t, "review", 360, 740)
	p.Expect("409") // the record, asked while the game goes on: not_over
	p.Do(10*time.Second, chromedp.Navigate(ts.URL+"/healthz"), chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		yes := true
		_, err := chromedp.Call(ctx, network.SetCookie, network.SetCookieParams{
			Name: "mafia_" + rt.ID, Value: rt.Host, URL: ts.URL, Path: "/", HTTPOnly: &yes, SameSite: network.CookieSameSiteStrict,
		})
		return err
	}))
	p.Do(15*time.Second, chromedp.Navigate(ts.URL+"/t/"+rt.ID+"/review"), browsertest.WaitVisible(chromedp.CSS("#rv-wait")))
	p.Do(5*time.Second, webtest.TapSetting(`button[data-lang="en"]`))
	p.WaitJS(5*time.Second, `document.documentElement.lang === 'en' && !!document.querySelector('#rv-wait')`)
	if n := webtest.Eval[int](p, `document.querySelectorAll('[data-role], #rv-cards, #rv-days').length`); n != 0 {
		t.Fatalf("before the end the review shows %d parts of the game:\n%s", n, p.Text())
	}
	p.Shot("80-review-not-over-en-360")

	rt.Claim(ctx)
	rt.Leave()
	log := rt.WaitEnd(ctx)
	g, err := engine.Replay(log)
	if err != nil {
		t.Fatal(err)
	}
	p.WaitJS(20*time.Second, `!!document.querySelector('#rv-cards')`)

	// The chat the review must show: every line the store kept, in order
	// (the host's own, and the smart bots' spoken lines).
	stored, err := ts.DB.Chat(ctx, rt.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	// A bot's line shows in the page's language (the record renders it so).
	chatIn := func(lang locale.Lang) []string {
		var out []string
		for _, l := range stored {
			out = append(out, fmt.Sprintf("%s|%d|%s", l.Channel, l.Seat, room.ChatText(lang, l)))
		}
		return out
	}
	if wantChat := chatIn(locale.En); len(wantChat) == 0 || wantChat[0] != "town|1|"+rt.Said {
		t.Fatalf("the stored chat %q does not begin with the host's line", wantChat)
	}
	var want = map[string]int{}
	votes := 0
	for _, e := range log {
		w := wire.FromEvent(e, webtest.ReviewPlayers)
		want[w.Kind]++
		if w.Kind == "vote_closed" {
			for _, c := range w.Ballot {
				if c != 0 {
					votes++
				}
			}
		}
	}
	for _, lang := range []locale.Lang{locale.Ka, locale.En, locale.Ru} {
		p.Do(5*time.Second, webtest.TapSetting(`button[data-lang="`+string(lang)+`"]`))
		// the record asked again in the new language, and drawn
		p.WaitJS(10*time.Second, `document.documentElement.lang === '`+string(lang)+`' && !!document.querySelector('#rv-cards') && window.__mafiaReview && window.__mafiaReview.lang === '`+string(lang)+`' && !window.__mafiaReview.asking`)
		msgs := locale.New(lang)
		got := webtest.Eval[reviewShown](p, readReview)
		if head := msgs.T("web.review.heading_named", map[string]any{"Name": "Friday review"}); got.Head != head {
			t.Errorf("%s: heading %q, want %q", lang, got.Head, head)
		}
		if got.Winner != g.Winner().String() {
			t.Errorf("%s: winner %q, the game's %s", lang, got.Winner, g.Winner())
		}
		for s := 1; s <= webtest.ReviewPlayers; s++ {
			if c := got.Cards[fmt.Sprint(s)]; c != g.Role(engine.Seat(s)).String() {
				t.Errorf("%s: seat %d shows card %q, the deal's %s", lang, s, c, g.Role(engine.Seat(s)))
			}
		}
		if got.Events != len(log) {
			t.Errorf("%s: %d events shown, the log has %d", lang, got.Events, len(log))
		}
		for k, n := range want {
			if got.Kinds[k] != n {
				t.Errorf("%s: %d %s shown, the log has %d", lang, got.Kinds[k], k, n)
			}
		}
		if want["mafia_chose"]+want["checked"] == 0 || want["vote_closed"] == 0 {
			t.Errorf("the game had no night action or no vote to show: %v", want)
		}
		// Each vote's tally names its voters: as many as cast a ballot.
		voters := 0
		for _, l := range got.Tally {
			// "seat 3 (Nino, Don): 2 votes (1, 4)": the voters close the line.
			list := l[strings.LastIndex(l, "(")+1:]
			voters += strings.Count(list, ",") + 1
		}
		if got.Kinds["vote_closed"] > 0 && voters < votes {
			t.Errorf("%s: the tallies name %d voters, the ballots hold %d: %q", lang, voters, votes, got.Tally)
		}
		if wantChat := chatIn(lang); !slices.Equal(got.Chat, wantChat) {
			t.Errorf("%s: the chat shown: %q, the stored: %q", lang, got.Chat, wantChat)
		}
		if len(got.Groups) < 3 || got.Groups[0] != "before0" || got.Groups[1] != "deal0" {
			t.Errorf("%s: the groups: %q", lang, got.Groups)
		}
		if got.URL != ts.URL+"/t/"+rt.ID+"/review#step=0&view=0" || got.Who != msgs.T("web.review.private", nil) {
			t.Errorf("%s: the link %q, %q", lang, got.URL, got.Who)
		}
		if lang == locale.Ka {
			if broken := webtest.Eval[[]string](p, webtest.BrokenWords("main")); len(broken) > 0 {
				t.Errorf("ka: words broken in two at 360 px: %q", broken)
			}
		}
		if lang != locale.En {
			webtest.NoEnglish(p, lang)
		}
		p.Shot("81-review-" + string(lang) + "-360")
	}
	// The copy button copies the link (or selects it), and says so.
	p.WaitJS(5*time.Second, `(() => { document.querySelector('#rv-copy').click(); return true; })()`)
	p.WaitJS(5*time.Second, `document.querySelector('#rv-copy').textContent === `+webtest.StrconvQuote(locale.New(locale.Ru).T("web.pre.copied", nil)))
	if want["statement"] == 0 {
		t.Error("the game's log holds no statement, the host's claim among them: the review showed none")
	}
	// The QR code of the link opens, and is an image.
	p.Do(5*time.Second, browsertest.Click(chromedp.CSS("#rv-share summary")))
	p.WaitJS(10*time.Second, `(() => { const i = document.querySelector('#rv-qr'); return i && i.complete && i.naturalWidth > 0; })()`)
	p.Shot("82-review-qr-360")

	// The game-over screen of the table links to the review.
	p.Do(15*time.Second, chromedp.Navigate(ts.URL+"/t/"+rt.ID), browsertest.WaitVisible(chromedp.CSS("#winner")),
		browsertest.WaitVisible(chromedp.CSS("#open-review")))
	p.WaitJS(5*time.Second, `(() => { const a = document.querySelector('#open-review'); if (a) a.click(); return !!a; })()`)
	p.WaitJS(15*time.Second, `location.pathname.endsWith('/review') && !!document.querySelector('#rv-cards')`)

	// Another phone, no seat: the private review is refused, in its words.
	o := webtest.NewTab(t, "outsider", 360, 740)
	o.Expect("403")
	o.Do(15*time.Second, chromedp.Navigate(ts.URL+"/t/"+rt.ID+"/review"), browsertest.WaitVisible(chromedp.CSS("#rv-error")))
	if code := webtest.Eval[string](o, `document.querySelector('#rv-error').dataset.code`); code != "bad_token" {
		t.Errorf("the outsider's review: %q, want bad_token", code)
	}
	if n := webtest.Eval[int](o, `document.querySelectorAll('[data-role], #rv-cards').length`); n != 0 {
		t.Errorf("the outsider sees %d parts of the game", n)
	}
	o.Shot("83-review-private-360")
}

// TestBrowserReviewOfAnInPersonGame: a game the host's assistant recorded
// (seven people at the club, dealt by hand; the host removes both
// mafiosi by fouls and the town wins) has the same review at
// /t/{id}/review, from its protocol: refused while the game goes on to a
// phone that is not the host's, and once it has ended, every seat's name,
// card and fouls, every event of the stored log and the result, marked as
// a game played at the club.
func TestBrowserReviewOfAnInPersonGame(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartServer(t)
	names := []string{"ნინო", "Giorgi", "Тамара", "Dato", "Eka", "Levan", "Mariam"}
	roles := []string{"citizen", "don", "citizen", "mafia", "detective", "doctor", "citizen"}
	var c struct {
		ID        string `json:"id"`
		HostToken string `json:"host_token"`
	}
	if code := postJSON(t, ts.URL+"/host/api/games", "", map[string]any{"names": names, "deal": record.DealManual, "roles": roles}, &c); code != http.StatusCreated {
		t.Fatalf("create an in-person game: %d", code)
	}
	p := webtest.NewTab(t, "club", 360, 740)
	p.Expect("403") // the protocol, asked before the end by one who is not the host
	p.Expect("404") // the online record of an id that is no online table's
	p.Do(15*time.Second, chromedp.Navigate(ts.URL+"/t/"+c.ID+"/review"), browsertest.WaitVisible(chromedp.CSS("#rv-error")))
	if n := webtest.Eval[int](p, `document.querySelectorAll('[data-role], #rv-cards').length`); n != 0 {
		t.Fatalf("before the end the review shows %d parts of the game", n)
	}
	var cmds []record.Command
	for _, s := range []engine.Seat{2, 2, 2, 2, 4, 4, 4, 4} {
		cmd := record.FromEngine(engine.Command{Verb: engine.Foul, Target: s})
		cmd.Seq, cmd.ID = len(cmds), fmt.Sprintf("id-%d", len(cmds))
		cmds = append(cmds, cmd)
	}
	var synced struct {
		Ended  bool   `json:"ended"`
		Winner string `json:"winner"`
	}
	if code := postJSON(t, ts.URL+"/host/api/games/"+c.ID+"/sync", c.HostToken, map[string]any{"commands": cmds}, &synced); code != 200 || !synced.Ended {
		t.Fatalf("sync: %d %+v", code, synced)
	}
	log, err := ts.DB.Events(context.Background(), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	p.Do(15*time.Second, chromedp.Navigate(ts.URL+"/t/"+c.ID+"/review"), browsertest.WaitVisible(chromedp.CSS("#rv-cards")))
	p.Do(5*time.Second, webtest.TapSetting(`button[data-lang="ru"]`))
	p.WaitJS(5*time.Second, `document.documentElement.lang === 'ru' && !!document.querySelector('#rv-in-person')`)
	got := webtest.Eval[reviewShown](p, readReview)
	if got.Winner != "town" || got.Events != len(log) || got.Kinds["fouled"] != 8 {
		t.Errorf("the in-person review: winner %q, %d events of %d, %d fouls: %+v", got.Winner, got.Events, len(log), got.Kinds["fouled"], got)
	}
	for s, r := range roles {
		if got.Cards[fmt.Sprint(s+1)] != r {
			t.Errorf("seat %d shows %q, dealt %s", s+1, got.Cards[fmt.Sprint(s+1)], r)
		}
	}
	if text := webtest.Eval[string](p, `document.querySelector('#rv-cards').innerText`); !strings.Contains(text, names[0]) || !strings.Contains(text, names[2]) ||
		!strings.Contains(text, locale.New(locale.Ru).Plural("web.review.fouls", 4, map[string]any{"Count": 4})) {
		t.Errorf("the cards do not name the people or their fouls:\n%s", text)
	}
	webtest.NoEnglish(p, locale.Ru)
	p.Shot("84-review-in-person-ru-360")
	// Its link's QR code too (an in-person game's id is a table's id too).
	p.Do(5*time.Second, browsertest.Click(chromedp.CSS("#rv-share summary")))
	p.WaitJS(10*time.Second, `(() => { const i = document.querySelector('#rv-qr'); return i && i.complete && i.naturalWidth > 0; })()`)
}

// postJSON posts a JSON body (with the bearer token, if any) and decodes
// the answer into out.
func postJSON(t *testing.T, url, token string, body, out any) int {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", url, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("POST %s: %s: %v\n%s", url, res.Status, err, data)
		}
	}
	return res.StatusCode
}
