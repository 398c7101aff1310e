// Package sim plays many complete games with bots (a level per side, see
// bot.Mix), in parallel, and counts who wins: the balance simulator behind
// `mafia sim`.
//
// It owns the work split and the tally. It must not change any rule (the
// engine decides) and its result must depend only on the seed, never on the
// number of cores or the order in which workers finish.
package sim

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"mafia/bot"
	"mafia/engine"
	"mafia/rng"
)

// Config is one simulation.
type Config struct {
	Games   int            // complete games to play
	Players int            // seats per game (a preset of docs/rules.md, 5 to 11)
	Setup   *engine.Setup  // a custom setup instead of the preset, when set
	Seed    uint64         // the root seed; game i gets rng.Derive(Seed, i)
	Rules   engine.Ruleset // the options
	Workers int            // goroutines; 0 means one per core
	// Progress, when set, is called now and then with the games done so far
	// (from any worker goroutine).
	Progress func(done int)
	// Bots is the level of each side's bots (the zero Mix: random everywhere).
	Bots bot.Mix
	// Metrics, when set, counts the per-role metrics (Result.Metrics); it
	// does not change a single game.
	Metrics bool
	// MaxSteps bounds one game's steps (0: DefaultMaxSteps); a game still
	// going after it is counted Unfinished.
	MaxSteps int
	// Adversary, when set, seats a scripted adversary (adversary.go) at
	// the first seat dealt its card, around the bot the mix gives it.
	Adversary bot.Placement
	// Classify, when set, counts the public-record classifier's picks
	// (Result.Classified); it does not change a single game.
	Classify bool
}

// DefaultMaxSteps bounds one game's steps: far above any real game.
const DefaultMaxSteps = 100000

// Result is a simulation's tally.
type Result struct {
	Games      int
	Players    int
	Town       int
	Mafia      int
	Maniac     int
	Draw       int
	Unfinished int
	Rounds     int        // the sum of every finished game's last round
	Metrics    Metrics    // counted when Config.Metrics is set
	Classified Classified // counted when Config.Classify is set
}

// AvgRounds returns the mean number of rounds of a finished game.
func (r Result) AvgRounds() float64 {
	if n := r.Games - r.Unfinished; n > 0 {
		return float64(r.Rounds) / float64(n)
	}
	return 0
}

// Rate returns the share of games with count wins and its 95% confidence
// interval's half-width (Wilson score interval, as [lo, hi]).
func (r Result) Rate(count int) (p, lo, hi float64) {
	n := float64(r.Games)
	if n == 0 {
		return 0, 0, 0
	}
	p = float64(count) / n
	const z = 1.959963984540054
	den := 1 + z*z/n
	mid := (p + z*z/(2*n)) / den
	half := z * math.Sqrt(p*(1-p)/n+z*z/(4*n*n)) / den
	return p, math.Max(0, mid-half), math.Min(1, mid+half)
}

func (r *Result) add(o Result) {
	r.Town += o.Town
	r.Mafia += o.Mafia
	r.Maniac += o.Maniac
	r.Draw += o.Draw
	r.Unfinished += o.Unfinished
	r.Rounds += o.Rounds
	r.Metrics.add(o.Metrics)
	r.Classified.add(o.Classified)
}

// chunk is how many games a worker takes at a time.
const chunk = 256

// Run plays the games and returns the tally. It fails only on a bad setup.
func Run(cfg Config) (Result, error) {
	setup, err := cfg.setup()
	if err != nil {
		return Result{}, err
	}
	if _, err := setup.Validate(); err != nil {
		return Result{}, err
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if cfg.MaxSteps <= 0 {
		cfg.MaxSteps = DefaultMaxSteps
	}
	total := Result{Games: cfg.Games, Players: setup.Players()}
	var next, done atomic.Int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := newPlayer(setup, cfg.Rules, cfg.Bots)
			if cfg.Metrics {
				p.metrics = true
				p.table.OnEvents = p.meter.events
			}
			p.place, p.classify = cfg.Adversary, cfg.Classify
			if cfg.Classify {
				p.table.OnEvents = p.events
			}
			var local Result
			for {
				start := int(next.Add(chunk)) - chunk
				if start >= cfg.Games {
					break
				}
				end := min(start+chunk, cfg.Games)
				for i := start; i < end; i++ {
					p.play(rng.Derive(cfg.Seed, uint64(i)), cfg.MaxSteps, &local)
				}
				d := done.Add(int64(end - start))
				if cfg.Progress != nil {
					cfg.Progress(int(d))
				}
			}
			mu.Lock()
			total.add(local)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return total, nil
}

func (cfg Config) setup() (engine.Setup, error) {
	if cfg.Setup != nil {
		return *cfg.Setup, nil
	}
	return engine.Preset(cfg.Players)
}

// player is one worker's reusable table: a game, its bots and buffers, so
// that a game allocates nothing.
type player struct {
	setup  engine.Setup
	rules  engine.Ruleset
	mix    bot.Mix
	game   engine.Game
	roles  []engine.Role
	random []bot.Random
	smart  []bot.Smart
	expert []bot.Expert
	table  bot.Table
	// metrics: count them (with meter) in every game
	metrics bool
	meter   meter
	// an adversary (adversary.go), and the classifier
	place    bot.Placement
	adv      bot.Adversary
	classify bool
	tells    classifier
}

func newPlayer(setup engine.Setup, rules engine.Ruleset, mix bot.Mix) *player {
	n := setup.Players()
	p := &player{setup: setup, rules: rules, mix: mix, roles: make([]engine.Role, 0, n),
		random: make([]bot.Random, n+1), smart: make([]bot.Smart, n+1), expert: make([]bot.Expert, n+1)}
	p.table.Game = &p.game
	p.table.Bots = make([]bot.Bot, n+1)
	return p
}

// play plays one game from its seed and adds it to the tally.
func (p *player) play(seed uint64, maxSteps int, r *Result) {
	p.roles = p.setup.Deal(seed, p.roles)
	start, err := p.game.Start(p.rules, p.roles, seed)
	if err != nil {
		panic("sim: a validated setup did not start: " + err.Error())
	}
	for s := 1; s < len(p.table.Bots); s++ {
		bs := rng.Derive(seed, uint64(s))
		switch p.mix.For(p.roles[s-1]) {
		case bot.LevelSmart:
			p.smart[s].Reset(bs)
			p.table.Bots[s] = &p.smart[s]
		case bot.LevelExpert:
			p.expert[s].Reset(bs)
			p.table.Bots[s] = &p.expert[s]
		default:
			p.random[s].Src.Seed(bs)
			p.table.Bots[s] = &p.random[s]
		}
	}
	p.seatAdversary(seed)
	if p.metrics {
		p.meter.start(&p.game, p.roles, &r.Metrics)
	}
	if p.classify {
		p.tells.start(p.roles, p.rules, &r.Classified)
		p.tells.events(start)
	}
	p.table.Begin(start)
	if !p.table.Play(maxSteps) {
		r.Unfinished++
		return
	}
	r.Rounds += p.game.Round()
	switch p.game.Winner() {
	case engine.WinnerTown:
		r.Town++
	case engine.WinnerMafia:
		r.Mafia++
	case engine.WinnerManiac:
		r.Maniac++
	case engine.WinnerDraw:
		r.Draw++
	}
}
