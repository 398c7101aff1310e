package sheettest_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"mafia/club"
	"mafia/clubhttp"
	"mafia/internal/browsertest"
	"mafia/store"
	"mafia/store/sqlite"
)

var browser = browsertest.New("mafia/clubhttp/sheettest")

func TestMain(m *testing.M) {
	code := m.Run()
	browser.Close()
	os.Exit(code)
}

// kept are the club's games as their keeper gives them (clubhttp.Games).
type kept map[string]club.Game

func (k kept) ClubGame(_ context.Context, id string) (club.Game, bool) {
	g, ok := k[id]
	return g, ok
}

// names are thirty players as a Tbilisi club writes them: long Georgian
// family names, Russian and Latin ones, a double-barrelled one.
var names = []string{
	"ალექსანდრე ჯავახიშვილი", "ნინო ბერიძე-ციციშვილი", "გიორგი მაჭავარიანი", "თამარ კვარაცხელია", "ლევან ღვინიაშვილი",
	"ეკატერინე ჩხეიძე", "ირაკლი ხარაიშვილი", "სალომე ბოჭორიშვილი", "ზურაბ ჭანტურია", "ქეთევან მგალობლიშვილი",
	"Константин Вознесенский", "Екатерина Ковальчук", "Александра Преображенская", "Вячеслав Милославский", "Нина Берия",
	"Maximilian Oberhausen", "Anastasia Papadopoulou", "Ketevan Jorjadze", "Tornike Chkheidze-Lomidze", "Sopho Kvaratskhelia",
	"დავით წერეთელი", "ანა გამსახურდია", "ბექა ცხოვრებაშვილი", "მარიამ ფხაკაძე", "ლაშა თოდუა",
	"Владимир Гвишиани", "Mariam Tsereteli", "შოთა რუსთაველი", "Elisabeth Wittgenstein", "ნიკოლოზ ბარათაშვილი",
}

// TestWall_TheStandingsOfThirtyFitOneA4PageInEveryLanguage: a season of
// thirty players (long names in three scripts) prints its wall sheet on
// exactly one A4 page in ka, en and ru; in print media at A4's width no
// cell overflows its column, no number or header wraps, no name is cut
// inside a word, and the table ends inside the page's right edge.
func TestWall_TheStandingsOfThirtyFitOneA4PageInEveryLanguage(t *testing.T) {
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	games := kept{}
	h := clubhttp.New(clubhttp.Config{Store: db, Games: games, Files: "v"})
	css, err := os.ReadFile("../../assist/static/print.css")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /host/static/v/print.css", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
		_, _ = w.Write(css)
	})
	mux.Handle("/", h)
	ts := httptest.NewServer(mux)
	defer ts.Close()

	ctx := context.Background()
	c := store.Club{ID: "tbilisi", Name: "თბილისის მაფიის კლუბი", TokenHash: "x", CreatedAt: time.Now()}
	if err := db.CreateClub(ctx, c); err != nil {
		t.Fatal(err)
	}
	if err := db.SaveSeason(ctx, c.ID, store.ClubSeason{ID: "winter", Name: "ზამთარი 2026", From: "2026-12-01", To: "2027-02-28"}); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i, n := range names {
		p := store.ClubPerson{ID: "p" + strconv.Itoa(100+i), Name: n, CreatedAt: time.Now()}
		if err := db.AddPerson(ctx, c.ID, p); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	// Three games of ten: each player plays one; extras spread the points.
	roles := []string{"don", "mafia", "mafia", "detective", "doctor", "citizen", "citizen", "citizen", "citizen", "citizen"}
	for g := range 3 {
		cg := club.Game{Date: "2026-12-0" + strconv.Itoa(g+1), Rules: "std", Winner: []string{"town", "mafia", "town"}[g]}
		for s, r := range roles {
			cg.Seats = append(cg.Seats, club.Seat{Seat: s + 1, Person: ids[g*10+s], Name: names[g*10+s], Role: r})
			cg.Extra = append(cg.Extra, club.Extra{Seat: s + 1, Points: club.Points((s*7+g*3)%12*5 - 20)})
		}
		id := "g" + strconv.Itoa(g)
		games[id] = cg
		if err := db.CreateTable(ctx, store.Table{ID: id, Kind: store.KindInPerson, Name: id, Status: "in_person", CreatedAt: time.Now(), UpdatedAt: time.Now()}, nil); err != nil {
			t.Fatal(err)
		}
		if err := h.AddGame(ctx, c.ID, store.ClubGame{TableID: id, Day: cg.Date}); err != nil {
			t.Fatal(err)
		}
	}

	if res, err := http.Get(ts.URL + "/host/clubs/" + c.ID + "/seasons/winter/wall"); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("the wall sheet: %v %v", res, err)
	}
	root := browser.Context(t)
	for _, lang := range []string{"ka", "en", "ru"} {
		t.Run(lang, func(t *testing.T) {
			tab := browsertest.Tab(t, root, chromedp.WithNewBrowserContext())
			tab, stop := context.WithTimeout(tab, 90*time.Second)
			defer stop()
			if err := chromedp.Do(tab, chromedp.Navigate(ts.URL+"/host/clubs/"+c.ID+"/seasons/winter/wall?lang="+lang),
				chromedp.WaitReady(`table[data-t="wall"]`)); err != nil {
				t.Fatal(err)
			}
			rows, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll('table[data-t="wall"] tbody tr').length`))
			if err != nil || rows != 30 {
				t.Fatalf("%d rows on the wall sheet (%v), want 30", rows, err)
			}
			var pdf []byte
			if err := chromedp.Do(tab, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
				yes := true
				r, err := chromedp.Call(ctx, page.PrintToPDF, page.PrintToPDFParams{PaperWidth: 8.27, PaperHeight: 11.69, PreferCSSPageSize: &yes})
				pdf = r.Data
				return err
			})); err != nil {
				t.Fatal(err)
			}
			if pages := len(regexp.MustCompile(`/Type\s*/Page[^s]`).FindAll(pdf, -1)); pages != 1 {
				t.Errorf("the wall sheet of 30 prints on %d A4 pages, want 1", pages)
			}
			if dir := os.Getenv("MAFIA_SHEET_PDF"); dir != "" {
				_ = os.WriteFile(filepath.Join(dir, "wall-"+lang+".pdf"), pdf, 0o644)
			}
			// The print media at A4's printable width (210 mm - 2×10 mm at 96 px an inch).
			if err := chromedp.Do(tab, chromedp.EmulateViewport(718, 1047), chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
				_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
				return err
			})); err != nil {
				t.Fatal(err)
			}
			tall, _ := chromedp.Run(tab, chromedp.Evaluate[string](`(() => { const rs = [...document.querySelectorAll('table[data-t="wall"] tr')].map((r) => Math.round(r.getBoundingClientRect().height));
  return Math.round(document.querySelector('table[data-t="wall"]').getBoundingClientRect().bottom) + ' px tall (the page: 1047); rows ' + rs.join(' ') + '; name column ' + Math.round(document.querySelector('td.c-name').getBoundingClientRect().width); })()`))
			t.Logf("%s: in print media at A4's width the sheet is %s", lang, tall)
			faults, err := chromedp.Run(tab, chromedp.Evaluate[[]string](layoutCheck))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range faults {
				t.Error(f)
			}
		})
	}
}

// layoutCheck lists what is wrong with the wall sheet as laid out: a cell
// whose content overflows it, a number or a header on more than one line,
// a word of a name on more than one line (cut inside: a break between
// words or at a double name's hyphen is no cut), the table past the
// page's right edge.
const layoutCheck = `(() => {
  const out = [];
  const lines = (node) => { const r = document.createRange(); r.selectNodeContents(node);
    const tops = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top))); return tops.size; };
  const table = document.querySelector('table[data-t="wall"]');
  if (table.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5) out.push('the table ends past the right edge: ' + table.getBoundingClientRect().right);
  for (const cell of table.querySelectorAll('th, td')) {
    if (cell.scrollWidth > cell.clientWidth + 1) out.push('overflows its cell: ' + cell.textContent);
    const name = cell.classList.contains('c-name');
    if (!name && lines(cell) > 1) out.push('wraps: ' + cell.textContent);
    if (name && cell.tagName === 'TD') {
      const text = cell.firstChild;
      let at = 0;
      for (const word of cell.textContent.split(/[ -]/)) { // a double name may break at its hyphen
        const r = document.createRange(); r.setStart(text, at); r.setEnd(text, at + word.length);
        const tops = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
        if (tops.size > 1) out.push('a word cut inside: ' + word);
        at += word.length + 1;
      }
    }
  }
  return out;
})()`
