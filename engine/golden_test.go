package engine_test

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"mafia/bot"
	"mafia/engine"
	"mafia/rng"
)

// Golden game transcripts: testdata/games/*.golden hold complete seeded
// games, each command ("> ...") followed by the events it caused, one per
// line. The test replays the recorded commands through the engine and
// compares the whole transcript with the file, so a change in any rule that
// these games touch shows up as a diff. The commands were chosen by random
// bots when the files were made; the test does not depend on the bots.
//
// Regenerate (after a deliberate rule change, then read the diff):
//
//	go test ./engine -run Golden -update

var update = flag.Bool("update", false, "rewrite the golden game transcripts in testdata/games")

// goldenGames are the games the files hold: table sizes and options chosen
// to cover the flows (meeting night, ties and the all-vote, fouls, the
// maniac, reveals).
var goldenGames = []struct {
	name    string
	players int
	setup   *engine.Setup // nil: the preset
	options []string
	seed    uint64
	fouls   int // 1 in fouls commands, the host gives a random living seat a foul
}{
	{name: "05-preset-defaults-all-leave", players: 5, seed: 183},
	{name: "07-meeting-no-last-words-all-vote-fails", players: 7, options: []string{"first_night=meeting", "last_words=off"}, seed: 176},
	{name: "09-unanimous-reveal-role-second-tie-all", players: 9, options: []string{"mafia_kill=unanimous", "reveal_on_death=role", "second_tie=all"}, seed: 105},
	{name: "10-fouls-reveal-team-not-twice", players: 10, options: []string{"foul_limit=2", "reveal_on_death=team", "doctor_repeat=not_twice_in_a_row"}, seed: 121, fouls: 9},
	{name: "11-maniac-check-maniac-1x1-draw", players: 11, options: []string{"maniac_check=maniac", "maniac_vs_mafia_1x1=draw"}, seed: 9},
	{name: "11-maniac-wins", players: 11, options: []string{"maniac_check=maniac", "maniac_vs_mafia_1x1=draw"}, seed: 8},
	{name: "16-custom-maniac-fouls-recorded", players: 16, setup: &engine.Setup{Don: 1, Mafia: 3, Maniac: 1, Detective: 1, Doctor: 1, Citizens: 9},
		options: []string{"foul_limit=0", "second_tie=nobody", "first_night=meeting"}, seed: 6, fouls: 7},
}

func TestGolden_GameTranscripts(t *testing.T) {
	for _, gg := range goldenGames {
		t.Run(gg.name, func(t *testing.T) {
			path := filepath.Join("testdata", "games", gg.name+".golden")
			if *update {
				text := recordGolden(t, gg.players, gg.setup, gg.options, gg.seed, gg.fouls)
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./engine -run Golden -update)", err)
			}
			got := replayGolden(t, string(want))
			if got != string(want) {
				t.Errorf("%s: the engine's transcript differs from the file:\n%s", path, firstDiff(string(want), got))
			}
		})
	}
}

// recordGolden plays a game with random bots and renders its transcript.
func recordGolden(t *testing.T, players int, setup *engine.Setup, options []string, seed uint64, fouls int) string {
	t.Helper()
	var s engine.Setup
	if setup != nil {
		s = *setup
	} else {
		var err error
		if s, err = engine.Preset(players); err != nil {
			t.Fatal(err)
		}
	}
	deal := s.Deal(seed, nil)
	r := rules(t, options...)
	g, evs, err := engine.New(r, deal, seed)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	goldenHeader(&b, deal, r, seed)
	for _, e := range evs {
		b.WriteString(renderEvent(e) + "\n")
	}
	tb := &bot.Table{Game: g, Bots: make([]bot.Bot, players+1)}
	for i := 1; i <= players; i++ {
		tb.Bots[i] = bot.NewRandom(rng.Derive(seed, uint64(i)))
	}
	src := rng.New(rng.Derive(seed, 999))
	tb.OnEvents = func(c engine.Command, evs []engine.Event) {
		b.WriteString(renderCommand(c) + "\n")
		for _, e := range evs {
			b.WriteString(renderEvent(e) + "\n")
		}
		if fouls > 0 && !g.Ended() && src.Intn(fouls) == 0 {
			f := engine.Command{Verb: engine.Foul, Target: g.Alive().Nth(src.Intn(g.Alive().Len()))}
			evs, err := g.Handle(f)
			if err != nil {
				t.Fatalf("foul: %v", err)
			}
			b.WriteString(renderCommand(f) + "\n")
			for _, e := range evs {
				b.WriteString(renderEvent(e) + "\n")
			}
		}
	}
	if !tb.Play(5000) {
		t.Fatalf("the game did not end")
	}
	return b.String()
}

func goldenHeader(b *strings.Builder, deal []engine.Role, r engine.Ruleset, seed uint64) {
	names := make([]string, len(deal))
	for i, c := range deal {
		names[i] = c.String()
	}
	fmt.Fprintf(b, "# deal: %s\n", strings.Join(names, " "))
	var opts []string
	for _, name := range r.Changed() {
		v, _ := r.Get(name)
		opts = append(opts, name+"="+v)
	}
	b.WriteString("# options:")
	for _, o := range opts {
		b.WriteString(" " + o)
	}
	b.WriteString("\n")
	fmt.Fprintf(b, "# seed: %d\n", seed)
}

// replayGolden reads a transcript's deal, options, seed and commands, plays
// the commands, and renders the transcript the engine produces.
func replayGolden(t *testing.T, text string) string {
	t.Helper()
	var deal, options, seed string
	var cmds []engine.Command
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "# deal: "):
			deal = strings.TrimPrefix(line, "# deal: ")
		case strings.HasPrefix(line, "# options:"):
			options = strings.TrimSpace(strings.TrimPrefix(line, "# options:"))
		case strings.HasPrefix(line, "# seed: "):
			seed = strings.TrimPrefix(line, "# seed: ")
		case strings.HasPrefix(line, "> "):
			c, err := parseCommand(line)
			if err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			cmds = append(cmds, c)
		}
	}
	sd, err := strconv.ParseUint(seed, 10, 64)
	if err != nil {
		t.Fatalf("seed %q: %v", seed, err)
	}
	r := rules(t, strings.Fields(options)...)
	g, evs, err := engine.New(r, cards(t, deal), sd)
	if err != nil {
		t.Fatal(err)
	}
	log := append([]engine.Event(nil), evs...)
	var b strings.Builder
	goldenHeader(&b, cards(t, deal), r, sd)
	for _, e := range evs {
		b.WriteString(renderEvent(e) + "\n")
	}
	for i, c := range cmds {
		evs, err := g.Handle(c)
		b.WriteString(renderCommand(c) + "\n")
		if err != nil {
			b.WriteString(fmt.Sprintf("! refused: %v\n", err))
			t.Errorf("command %d (%s) refused: %v", i+1, renderCommand(c), err)
			break
		}
		log = append(log, evs...)
		for _, e := range evs {
			b.WriteString(renderEvent(e) + "\n")
		}
	}
	if !g.Ended() {
		t.Errorf("the recorded game does not end")
	}
	if re, err := engine.Replay(log); err != nil || !re.Equal(g) {
		t.Errorf("the transcript's events do not replay to the game: %v", err)
	}
	return b.String()
}

// renderCommand writes a command as "> verb by [target|yes|no]", by the
// seat or "host".
func renderCommand(c engine.Command) string {
	by := strconv.Itoa(int(c.By))
	if c.By == engine.Host {
		by = "host"
	}
	switch {
	case c.Verb == engine.AllVote:
		yes := "no"
		if c.Yes {
			yes = "yes"
		}
		return fmt.Sprintf("> %s %s %s", c.Verb, by, yes)
	case c.Verb.HasTarget():
		return fmt.Sprintf("> %s %s %d", c.Verb, by, c.Target)
	}
	return fmt.Sprintf("> %s %s", c.Verb, by)
}

func parseCommand(line string) (engine.Command, error) {
	f := strings.Fields(strings.TrimPrefix(line, "> "))
	if len(f) < 2 {
		return engine.Command{}, fmt.Errorf("too short")
	}
	verb, ok := engine.ParseVerb(f[0])
	if !ok {
		return engine.Command{}, fmt.Errorf("unknown verb %q", f[0])
	}
	by := 0
	if f[1] != "host" {
		var err error
		if by, err = strconv.Atoi(f[1]); err != nil {
			return engine.Command{}, err
		}
	}
	c := engine.Command{Verb: verb, By: engine.Seat(by)}
	if len(f) > 2 {
		if verb == engine.AllVote {
			c.Yes = f[2] == "yes"
		} else {
			t, err := strconv.Atoi(f[2])
			if err != nil {
				return engine.Command{}, err
			}
			c.Target = engine.Seat(t)
		}
	}
	return c, nil
}

// renderEvent writes every field an event carries, by name; zero fields are
// left out.
func renderEvent(e engine.Event) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  [%d] %s", e.Round, e.Kind)
	if e.Phase != engine.PhaseNone {
		fmt.Fprintf(&b, " phase=%s", e.Phase)
	}
	if e.Actor != 0 {
		fmt.Fprintf(&b, " actor=%d", e.Actor)
	}
	if e.Target != 0 {
		fmt.Fprintf(&b, " target=%d", e.Target)
	}
	if e.Result != engine.ResultNone {
		fmt.Fprintf(&b, " result=%s", e.Result)
	}
	if e.Cause != engine.CauseNone {
		fmt.Fprintf(&b, " cause=%s", e.Cause)
	}
	if e.Winner != engine.WinnerNone {
		fmt.Fprintf(&b, " winner=%s", e.Winner)
	}
	if e.Role != engine.RoleNone {
		fmt.Fprintf(&b, " role=%s", e.Role)
	}
	if e.Team != engine.TeamNone {
		fmt.Fprintf(&b, " team=%s", e.Team)
	}
	if e.Yes {
		b.WriteString(" yes")
	}
	if e.Count != 0 {
		fmt.Fprintf(&b, " count=%d", e.Count)
	}
	if e.Set != 0 {
		fmt.Fprintf(&b, " set=%v", e.Set.Seats())
	}
	switch e.Kind {
	case engine.EvVoteBegan, engine.EvTie:
		fmt.Fprintf(&b, " list=%v", e.List())
	case engine.EvGameStarted, engine.EvGameEnded:
		var parts []string
		for s := 1; s < len(e.PerSeat); s++ {
			if e.PerSeat[s] != 0 {
				parts = append(parts, fmt.Sprintf("%d:%s", s, engine.Role(e.PerSeat[s])))
			}
		}
		fmt.Fprintf(&b, " cards=%s", strings.Join(parts, ","))
	default:
		var parts []string
		for s, v := range e.PerSeat {
			if v != 0 {
				parts = append(parts, fmt.Sprintf("%d:%d", s, v))
			}
		}
		if parts != nil {
			fmt.Fprintf(&b, " table=%s", strings.Join(parts, ","))
		}
	}
	if e.Seed != 0 {
		fmt.Fprintf(&b, " seed=%d", e.Seed)
	}
	if e.Rules != (engine.Ruleset{}) {
		m := e.Rules.Map()
		var parts []string
		for _, o := range engine.Options {
			parts = append(parts, o.Name+"="+m[o.Name])
		}
		fmt.Fprintf(&b, " rules=%s", strings.Join(parts, ","))
	}
	return b.String()
}

// firstDiff shows the first line where two transcripts differ.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n  file:   %s\n  engine: %s", i+1, a, b)
		}
	}
	return "(no difference)"
}
