package bot_test

import (
	"fmt"
	"testing"

	"mafia/bot"
	"mafia/engine"
	"mafia/rng"
)

// Every level plays legally: seeded games of 5 to 11 players under random
// house rules, every side at a random level, and not one command a bot
// chose from its view may be refused; a game replays the same from its
// seed.

const legalRoot = 0x6c6567616c // "legal"

func legalGames() int {
	if testing.Short() {
		return 5000
	}
	return 100000
}

// legalGame is one seeded game: its table, rules and mix.
type legalGame struct {
	name    string
	players int
	rules   engine.Ruleset
	mix     bot.Mix
	deal    []engine.Role
	seed    uint64
}

func newLegalGame(i int) legalGame {
	seed := rng.Derive(legalRoot, uint64(i))
	src := rng.New(seed)
	lg := legalGame{seed: seed, players: engine.PresetMin + src.Intn(engine.PresetMax-engine.PresetMin+1)}
	lg.rules = engine.RandomRules(&src)
	levels := bot.Levels()
	pick := func() bot.Level { l, _ := bot.ParseLevel(levels[src.Intn(len(levels))]); return l }
	lg.mix = bot.Mix{Town: pick(), Mafia: pick(), Maniac: pick()}
	setup, _ := engine.Preset(lg.players)
	lg.deal = setup.Deal(seed, nil)
	lg.name = fmt.Sprintf("game %d (seed %#x, %d players, bots %s, options %v)", i, seed, lg.players, lg.mix, lg.rules.Map())
	return lg
}

// play plays the game with fresh bots and returns a digest of every event,
// failing t on any refused command.
func (lg legalGame) play(t *testing.T) (digest uint64, events int) {
	g, start, err := engine.New(lg.rules, lg.deal, lg.seed)
	if err != nil {
		t.Fatalf("%s: %v", lg.name, err)
	}
	tb := &bot.Table{Game: g, Bots: make([]bot.Bot, lg.players+1)}
	for s := 1; s <= lg.players; s++ {
		tb.Bots[s] = lg.mix.For(lg.deal[s-1]).New(rng.Derive(lg.seed, uint64(s)))
	}
	digest = 0xcbf29ce484222325
	fold := func(evs []engine.Event) {
		for _, e := range evs {
			events++
			for _, x := range []uint64{uint64(e.Kind), uint64(e.Actor), uint64(e.Target), uint64(e.Set), uint64(e.Winner), uint64(e.Round)} {
				digest = (digest ^ x) * 0x100000001b3
			}
		}
	}
	fold(start)
	tb.OnEvents = func(_ engine.Command, evs []engine.Event) { fold(evs) }
	tb.OnRefused = func(c engine.Command, err error) {
		t.Fatalf("%s: the %s bot of seat %d (%s) chose %s %d from its view, which the engine refused: %v",
			lg.name, lg.mix.For(lg.deal[c.By-1]), c.By, lg.deal[c.By-1], c.Verb, c.Target, err)
	}
	tb.Begin(start)
	if !tb.Play(100000) {
		t.Fatalf("%s: the game did not end", lg.name)
	}
	return digest, events
}

func TestLevels_EveryLevelPlaysLegallyAndReplaysFromItsSeed(t *testing.T) {
	t.Parallel()
	// The games in legalParts runs side by side (each its own range of
	// game numbers, the same games as one run): the test is CPU-bound, and
	// one goroutine left the other core idle.
	const legalParts = 4
	var byLevel [legalParts][][3]int // games per level and side: every level is drawn
	t.Run("games", func(t *testing.T) {
		for part := 0; part < legalParts; part++ {
			byLevel[part] = make([][3]int, len(bot.Levels()))
			t.Run(fmt.Sprint(part), func(t *testing.T) {
				t.Parallel()
				for i := part; i < legalGames(); i += legalParts {
					lg := newLegalGame(i)
					d, n := lg.play(t)
					if i%10 == 0 {
						if d2, n2 := lg.play(t); d2 != d || n2 != n {
							t.Fatalf("%s: played twice from the same seed, %d events (digest %#x), then %d (%#x)", lg.name, n, d, n2, d2)
						}
					}
					byLevel[part][lg.mix.Town][0]++
					byLevel[part][lg.mix.Mafia][1]++
					byLevel[part][lg.mix.Maniac][2]++
				}
			})
		}
	})
	for l := range bot.Levels() {
		for side := 0; side < 3; side++ {
			n := 0
			for part := range byLevel {
				n += byLevel[part][l][side]
			}
			if n == 0 {
				t.Errorf("no game had side %d at level %d: the draw is broken", side, l)
			}
		}
	}
}

// TestSmart_PlaysLegallyFromTheViewAlone: a Smart bot shown no events (a
// driver that only gives views) still plays every seat legally.
func TestSmart_PlaysLegallyFromTheViewAlone(t *testing.T) {
	for i := 0; i < 500; i++ {
		lg := newLegalGame(i)
		g, _, err := engine.New(lg.rules, lg.deal, lg.seed)
		if err != nil {
			t.Fatal(err)
		}
		tb := &bot.Table{Game: g, Bots: make([]bot.Bot, lg.players+1)}
		for s := 1; s <= lg.players; s++ {
			tb.Bots[s] = bot.NewSmart(uint64(s))
		}
		tb.OnRefused = func(c engine.Command, err error) {
			t.Fatalf("%s: seat %d chose %s %d, refused: %v", lg.name, c.By, c.Verb, c.Target, err)
		}
		// no Begin: the bots are shown views only
		if !tb.Play(100000) {
			t.Fatalf("%s: the game did not end", lg.name)
		}
	}
}

// TestTalker_TalksLegally: the Talker's statements, drawn from its view,
// are never refused, and it does talk.
func TestTalker_TalksLegally(t *testing.T) {
	said := 0
	for i := 0; i < 500; i++ {
		lg := newLegalGame(i)
		g, _, err := engine.New(lg.rules, lg.deal, lg.seed)
		if err != nil {
			t.Fatal(err)
		}
		tb := &bot.Table{Game: g, Bots: make([]bot.Bot, lg.players+1)}
		for s := 1; s <= lg.players; s++ {
			tb.Bots[s] = bot.NewTalker(rng.Derive(lg.seed, uint64(s)))
		}
		tb.OnRefused = func(c engine.Command, err error) {
			t.Fatalf("%s: seat %d said %s %d, refused: %v", lg.name, c.By, c.Verb, c.Target, err)
		}
		tb.OnEvents = func(c engine.Command, _ []engine.Event) {
			if c.Verb.IsStatement() {
				said++
			}
		}
		if !tb.Play(100000) {
			t.Fatalf("%s: the game did not end", lg.name)
		}
	}
	if said < 500 {
		t.Fatalf("only %d statements in 500 games", said)
	}
}
