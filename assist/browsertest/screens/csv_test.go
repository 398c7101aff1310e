package screens

import (
	"bytes"
	"context"
	"encoding/csv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// TestTheCSVOpensInASpreadsheet plays a game with Georgian names to the end
// and downloads the CSV from the end screen's link, as the host's browser
// does: it begins with UTF-8's byte-order mark (without it Excel shows the
// Georgian names as mojibake), and every row carries the game's id.
func TestTheCSVOpensInASpreadsheet(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	h := hosttest.OpenHost(t, ts, "host")
	names := []string{"ნინო", "გიორგი", "თამარი", "ლევანი", "ანა", "დავითი", "ეკა"}
	id := h.Create(hosttest.GameSpec{Names: names, Roles: hosttest.Roles7, Deal: record.DealManual})
	h.Play(hosttest.TownDriver())
	h.WaitJS(hosttest.SyncWait, `!!document.querySelector('[data-t="exports"]')`)
	ctx, cancel := context.WithTimeout(h.Ctx, 10*time.Second)
	defer cancel()
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`(async () => {
		const a = document.querySelector('[data-t="exports"] a[download$=".csv"]');
		const r = await fetch(a.href, { credentials: 'same-origin' });
		return [...new Uint8Array(await r.arrayBuffer())]; })()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, len(got))
	for i, x := range got {
		b[i] = byte(x)
	}
	if !bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}) {
		t.Fatalf("the CSV does not begin with UTF-8's byte-order mark: % x", b[:min(8, len(b))])
	}
	rows, err := csv.NewReader(bytes.NewReader(b[3:])).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 10 {
		t.Fatalf("the CSV has %d rows", len(rows))
	}
	for i, r := range rows[1:] {
		if r[0] != id {
			t.Fatalf("row %d has %q for the game, want %q: %v", i+1, r[0], id, r)
		}
	}
	if !strings.Contains(string(b), "ნინო") {
		t.Error("the Georgian names are not in the CSV as UTF-8")
	}
}
