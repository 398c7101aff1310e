package bot_test

import (
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mafia/bot"
	"mafia/engine"
	"mafia/internal/puritytest"
	"mafia/rng"
)

// Bots never see a Game: they decide from their seat's view and the events
// their seat may see. These tests keep the rule: by the package's source
// (only the driver's Table holds a Game; what the bot interfaces take is a
// view, a seat and events), and by what the driver hands each seat in real
// games (checked against the true cards and the rulebook).

// botParams are the only types a bot's methods (Bot, Observer) may be given.
var botParams = map[string]bool{"*engine.View": true, "[]engine.Event": true, "engine.Seat": true}

// checkNoGame parses one package's non-test source and reports every place
// where a Game reaches anything but the driver's Table: a mention of
// engine.Game outside Table's Game field, a use of a .Game field outside
// Table's methods in driver.go, or a method of Bot or Observer given a type
// other than a view, a seat or events.
func checkNoGame(dir string) (problems []string, err error) {
	fset, files, err := puritytest.Source(dir)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		path := fset.Position(f.Package).Filename
		driver := filepath.Base(path) == "driver.go"
		report := func(node ast.Node, format string, a ...any) {
			problems = append(problems, fmt.Sprintf("%s: %s", fset.Position(node.Pos()), fmt.Sprintf(format, a...)))
		}
		// The one allowed mention: the field Game of the struct Table, in driver.go.
		var allowed ast.Node
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, sp := range g.Specs {
				ts := sp.(*ast.TypeSpec)
				switch t := ts.Type.(type) {
				case *ast.StructType:
					if ts.Name.Name != "Table" || !driver {
						continue
					}
					for _, fl := range t.Fields.List {
						if len(fl.Names) == 1 && fl.Names[0].Name == "Game" {
							allowed = fl.Type
						}
					}
				case *ast.InterfaceType:
					if ts.Name.Name != "Bot" && ts.Name.Name != "Observer" {
						continue
					}
					for _, m := range t.Methods.List {
						ft, ok := m.Type.(*ast.FuncType)
						if !ok {
							report(m, "interface %s embeds %s: a bot's methods must be listed", ts.Name.Name, types(fset, m.Type))
							continue
						}
						for _, p := range ft.Params.List {
							if s := types(fset, p.Type); !botParams[s] {
								report(p, "%s.%s is given a %s: a bot gets only its view, its seat and the events it may see", ts.Name.Name, m.Names[0].Name, s)
							}
						}
					}
				}
			}
		}
		tableMethods := map[ast.Node]bool{}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && driver && fd.Recv != nil && strings.Contains(types(fset, fd.Recv.List[0].Type), "Table") {
				tableMethods[fd] = true
			}
		}
		for _, d := range f.Decls {
			inTable := tableMethods[d]
			ast.Inspect(d, func(node ast.Node) bool {
				if node == allowed && allowed != nil {
					return false
				}
				sel, ok := node.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "engine" && sel.Sel.Name == "Game" {
					report(node, "engine.Game outside the driver's Table.Game field: bots must never see a Game")
					return true
				}
				if sel.Sel.Name == "Game" && !inTable {
					report(node, "%s.Game used outside the methods of Table: only the driver holds the Game", types(fset, sel.X))
				}
				return true
			})
		}
	}
	return problems, nil
}

func types(fset *token.FileSet, e ast.Expr) string {
	var b strings.Builder
	var walk func(ast.Expr)
	walk = func(e ast.Expr) {
		switch x := e.(type) {
		case *ast.Ident:
			b.WriteString(x.Name)
		case *ast.StarExpr:
			b.WriteString("*")
			walk(x.X)
		case *ast.SelectorExpr:
			walk(x.X)
			b.WriteString("." + x.Sel.Name)
		case *ast.ArrayType:
			b.WriteString("[]")
			walk(x.Elt)
		default:
			b.WriteString(fmt.Sprintf("%T", e))
		}
	}
	walk(e)
	return b.String()
}

func TestNoGame_OnlyTheDriverHoldsTheGame(t *testing.T) {
	problems, err := checkNoGame(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// TestNoGame_CheckerCatchesAGameReachingABot proves the source check can
// fail: each snippet lets a Game reach a bot once and must be reported.
func TestNoGame_CheckerCatchesAGameReachingABot(t *testing.T) {
	head := "package bot\nimport \"mafia/engine\"\n"
	for name, src := range map[string]string{
		"a bot method takes the game": `type Bot interface { Act(g *engine.Game) (engine.Command, bool) }`,
		"an observer takes the game":  `type Observer interface { See(g *engine.Game, evs []engine.Event) }`,
		"a bot holds the game":        `type Smart struct { g *engine.Game }`,
		"a bot is given the game":     `func (b *Smart) Use(g *engine.Game) {}`,
		"a bot reads the table's game": `type Smart struct{ t *Table }
func (b *Smart) Act(v *engine.View) (engine.Command, bool) { _ = b.t.Game; return engine.Command{}, false }`,
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte(head+src+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		problems, err := checkNoGame(dir)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(problems) == 0 {
			t.Errorf("%s: the checker found nothing in %s", name, src)
		}
	}
}

// recorder is a bot at one seat that plays like Random and records what it
// is given.
type recorder struct {
	bot.Random
	seat  engine.Seat
	seen  []engine.Event
	wrong []string
	views int
}

func (r *recorder) See(seat engine.Seat, evs []engine.Event) {
	if seat != r.seat {
		r.wrong = append(r.wrong, fmt.Sprintf("seat %d's bot was shown seat %d's events", r.seat, seat))
	}
	r.seen = append(r.seen, evs...)
}

func (r *recorder) Act(v *engine.View) (engine.Command, bool) {
	r.views++
	if v.Seat != r.seat || v.Host {
		r.wrong = append(r.wrong, fmt.Sprintf("seat %d's bot was given the view of seat %d (host %v)", r.seat, v.Seat, v.Host))
	}
	return r.Random.Act(v)
}

// TestNoGame_EachSeatSeesOnlyWhatItsSeatMaySee plays real games with a
// recording bot at every seat and checks what each was shown against the
// true cards: its own card (and, for the mafia, the team's) at the deal,
// the night's secret events only if they are its own (the mafia's victim
// talk only to the mafia), every public event, and nothing else.
func TestNoGame_EachSeatSeesOnlyWhatItsSeatMaySee(t *testing.T) {
	games := 300
	if testing.Short() {
		games = 60
	}
	for i := 0; i < games; i++ {
		seed := rng.Derive(0xb07, uint64(i))
		players := engine.PresetMin + i%(engine.PresetMax-engine.PresetMin+1)
		setup, _ := engine.Preset(players)
		rules := engine.DefaultRules()
		if i%2 == 1 {
			_ = rules.Set("reveal_on_death", "role")
		}
		g, start, err := engine.New(rules, setup.Deal(seed, nil), seed)
		if err != nil {
			t.Fatal(err)
		}
		var all []engine.Event
		all = append(all, start...)
		recs := make([]*recorder, players+1)
		tb := &bot.Table{Game: g, Bots: make([]bot.Bot, players+1)}
		for s := 1; s <= players; s++ {
			recs[s] = &recorder{Random: *bot.NewRandom(rng.Derive(seed, uint64(s))), seat: engine.Seat(s)}
			tb.Bots[s] = recs[s]
		}
		tb.OnEvents = func(_ engine.Command, evs []engine.Event) { all = append(all, evs...) }
		tb.Begin(start)
		if !tb.Play(100000) {
			t.Fatalf("game %d did not end", i)
		}
		asked := 0
		for s := 1; s <= players; s++ {
			asked += recs[s].views
		}
		if asked == 0 {
			t.Fatalf("game %d: no bot was ever asked", i)
		}
		for s := 1; s <= players; s++ {
			r := recs[s]
			for _, w := range r.wrong {
				t.Fatalf("game %d: %s", i, w)
			}
			me := engine.Seat(s)
			mafia := g.Role(me).IsMafia()
			var want []engine.Event
			for _, e := range all {
				switch e.Kind {
				case engine.EvChecked, engine.EvHealed, engine.EvShot, engine.EvSkipped, engine.EvVoteCast, engine.EvAllVoteCast:
					if e.Actor == me {
						want = append(want, e)
					}
				case engine.EvMafiaChose:
					if mafia {
						want = append(want, e)
					}
				case engine.EvGameStarted:
					red := e
					red.Seed = 0
					red.PerSeat = [engine.MaxSeats + 1]uint8{}
					for o := 1; o <= players; o++ {
						if o == s || (mafia && g.Role(engine.Seat(o)).IsMafia()) {
							red.PerSeat[o] = e.PerSeat[o]
						}
					}
					want = append(want, red)
				default:
					want = append(want, e)
				}
			}
			if len(r.seen) != len(want) {
				t.Fatalf("game %d: seat %d (%s) was shown %d events, its seat may see %d", i, s, g.Role(me), len(r.seen), len(want))
			}
			for k := range want {
				if r.seen[k] != want[k] {
					t.Fatalf("game %d: seat %d (%s), event %d: shown %+v, its seat may see %+v", i, s, g.Role(me), k, r.seen[k], want[k])
				}
			}
		}
	}
}

// TestNoGame_TheCheckCoversTheExpertLevel: the expert level's files are
// scanned (they pass as they are) and a Game slipped into any of them is
// found.
func TestNoGame_TheCheckCoversTheExpertLevel(t *testing.T) {
	files, _ := filepath.Glob("expert*.go")
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		n++
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, leak := range []string{"", "\ntype leak struct{ g *engine.Game }\n"} {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), append(append([]byte{}, src...), leak...), 0o644); err != nil {
				t.Fatal(err)
			}
			problems, err := checkNoGame(dir)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if leak == "" && len(problems) != 0 {
				t.Errorf("%s as it is: %v", f, problems)
			}
			if leak != "" && len(problems) == 0 {
				t.Errorf("%s with a Game in it: the check found nothing", f)
			}
		}
	}
	if n < 5 {
		t.Fatalf("%d expert files found: the level's source is not where the check looks", n)
	}
}
