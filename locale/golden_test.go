package locale

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"mafia/engine"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the catalogs")

const goldenPath = "testdata/catalog.golden"

// TestGoldenCatalog renders every refusal, every event and every name in
// all three languages into one file, so that a translator reads them side
// by side and a reviewer sees each change of wording in the diff. Run
// `go test ./locale -update` after changing a catalog.
func TestGoldenCatalog(t *testing.T) {
	got := goldenText()
	if *update {
		if err := os.WriteFile(goldenPath, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatalf("%v (run go test ./locale -update)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) || i < len(wl); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("%s differs at line %d:\n got: %q\nwant: %q\n(run go test ./locale -update and review the diff)", goldenPath, i+1, g, w)
			}
		}
	}
}

func goldenText() string {
	var b strings.Builder
	printers := make([]*Printer, 0, 3)
	for _, l := range Langs() {
		printers = append(printers, New(l))
	}
	section := func(title string) { fmt.Fprintf(&b, "\n=== %s ===\n", title) }
	entry := func(title string, render func(p *Printer) string) {
		fmt.Fprintf(&b, "\n# %s\n", title)
		for _, p := range printers {
			text := strings.ReplaceAll(render(p), "\n", "\n    ")
			fmt.Fprintf(&b, "%s: %s\n", p.Lang(), text)
		}
	}
	b.WriteString("Every sentence of package locale in en, ka and ru. Generated: go test ./locale -update\n")

	section("refusals")
	for _, s := range refusalSamples {
		err := s.err
		entry(s.name+" — "+err.Error(), func(p *Printer) string { return p.Refusal(err) })
	}
	entry("any other error", func(p *Printer) string { return p.Refusal(fmt.Errorf("disk full")) })

	section("events")
	for _, s := range eventSamples {
		s := s
		entry(fmt.Sprintf("%s — %s, read by seat %d", s.name, s.e.Kind, s.viewer), func(p *Printer) string { return p.Event(s.e, s.viewer) })
	}

	section("names")
	for r := engine.Citizen; r.String() != "?"; r++ {
		r := r
		entry("role "+r.String(), func(p *Printer) string { return p.Role(r) })
	}
	for _, tm := range []engine.Team{engine.TeamTown, engine.TeamMafia, engine.TeamManiac} {
		tm := tm
		entry("team "+tm.String(), func(p *Printer) string { return p.Team(tm) })
	}
	for ph := engine.PhaseNight; ph.String() != "?"; ph++ {
		ph := ph
		entry("phase "+ph.String(), func(p *Printer) string { return p.Phase(ph) })
	}
	for r := engine.ResultMafia; r.String() != "?"; r++ {
		r := r
		entry("result "+r.String(), func(p *Printer) string { return p.Result(r) })
	}
	for c := engine.CauseNight; c.String() != "?"; c++ {
		c := c
		entry("cause "+c.String(), func(p *Printer) string { return p.Cause(c) })
	}
	for w := engine.WinnerTown; w.String() != "?"; w++ {
		w := w
		entry("winner "+w.String(), func(p *Printer) string { return p.Winner(w) })
	}

	section("interface (the play command, the view summary, the words a player types)")
	for _, id := range theCatalog().ids(En) {
		if !strings.HasPrefix(id, "play.") && !strings.HasPrefix(id, "view.") && !strings.HasPrefix(id, "word.") {
			continue
		}
		id := id
		if len(theCatalog().forms(En, id)) > 1 {
			for _, n := range []int{1, 2, 5, 21} {
				entry(fmt.Sprintf("%s, %d", id, n), func(p *Printer) string { return p.Plural(id, n, uiData(p, n)) })
			}
			continue
		}
		entry(id, func(p *Printer) string { return p.T(id, uiData(p, 3)) })
	}

	section("setups")
	for n := engine.PresetMin; n <= engine.PresetMax; n++ {
		s, _ := engine.Preset(n)
		entry(fmt.Sprintf("preset of %d", n), func(p *Printer) string { return p.Setup(s) })
	}
	return b.String()
}

// uiData is sample data for the interface's messages, in p's own words.
func uiData(p *Printer, n int) map[string]any {
	w := func(key string) string { return p.Words(key)[0] }
	return map[string]any{
		"Seat": 4, "Round": 2, "Count": n, "Seed": 42, "Value": "xx", "Input": "blorp",
		"Phase": p.Phase(engine.PhaseSpeech), "Role": p.Role(engine.Doctor), "What": p.Result(engine.ResultNotMafia),
		"Seats": p.Seats([]engine.Seat{1, 2, 5}), "List": p.Seat(2) + ": " + p.Role(engine.Mafioso),
		"Word": w("vote"), "Example": w("kill") + " 3", "Choices": w("vote") + " N (1, 2) | Enter",
		"Kill": w("kill"), "Check": w("check"), "Shoot": w("shoot"), "Heal": w("heal"), "Skip": w("skip"),
		"Nominate": w("nominate"), "Vote": w("vote"), "Yes": w("yes"), "No": w("no"),
		"Status": w("status"), "Help": w("help"), "Quit": w("quit"),
		"Claim": w("claim"), "Report": w("report"), "Suspect": w("suspect"), "Vouch": w("vouch"), "Will": w("will_nominate"),
	}
}
