package bot_test

import (
	"sort"
	"testing"
	"time"

	"mafia/bot"
	"mafia/engine"
	"mafia/rng"
)

// timed wraps a bot and records how long each of its decisions (Act) and
// each of its readings of events (See) takes.
type timed struct {
	inner *bot.Expert
	took  *[]time.Duration
}

func (t timed) See(seat engine.Seat, evs []engine.Event) {
	start := time.Now()
	t.inner.See(seat, evs)
	*t.took = append(*t.took, time.Since(start))
}

func (t timed) Act(v *engine.View) (engine.Command, bool) {
	start := time.Now()
	c, ok := t.inner.Act(v)
	*t.took = append(*t.took, time.Since(start))
	return c, ok
}

// benchDecisions plays seeded games of the setup with expert bots on every
// seat and reports the 99th percentile and the longest of its calls.
func benchDecisions(b *testing.B, setup engine.Setup) {
	var took []time.Duration
	rules := engine.DefaultRules()
	for i := 0; b.Loop(); i++ {
		seed := rng.Derive(0xdec, uint64(i))
		deal := setup.Deal(seed, nil)
		g, start, err := engine.New(rules, deal, seed)
		if err != nil {
			b.Fatal(err)
		}
		tb := &bot.Table{Game: g, Bots: make([]bot.Bot, len(deal)+1)}
		for s := 1; s <= len(deal); s++ {
			tb.Bots[s] = timed{bot.NewExpert(rng.Derive(seed, uint64(s))), &took}
		}
		tb.Begin(start)
		tb.Play(100000)
	}
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	if len(took) > 0 {
		b.ReportMetric(float64(took[len(took)*99/100].Microseconds()), "p99-µs/call")
		b.ReportMetric(float64(took[len(took)*999/1000].Microseconds()), "p999-µs/call")
		b.ReportMetric(float64(took[len(took)-1].Microseconds()), "max-µs/call")
	}
}

// BenchmarkExpertDecision11: the club's 11 seats (every world enumerated).
func BenchmarkExpertDecision11(b *testing.B) {
	setup, _ := engine.Preset(11)
	benchDecisions(b, setup)
}

// BenchmarkExpertDecision20: a custom table of 20 seats (worlds sampled).
func BenchmarkExpertDecision20(b *testing.B) {
	benchDecisions(b, engine.Setup{Don: 1, Mafia: 4, Maniac: 1, Detective: 1, Doctor: 1, Citizens: 12})
}
