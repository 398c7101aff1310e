package seating

// Report is how a seating measures against the bounds the package
// promises; each Low and High is the bound's floor and ceiling.
type Report struct {
	Rounds             int
	GamesMin, GamesMax int // games played by a player: both Config.Games
	SeatMin, SeatMax   int // times a player has one seat number
	SeatLow, SeatHigh  int // floor(G/S) and ceil(G/S)
	PairMin, PairMax   int // games a pair (not to keep apart) shares
	PairLow, PairHigh  int // the floor and ceiling of the pairs' mean
	PairMean           float64
	SitOutMin          int // rounds a player sits out
	SitOutMax          int
	AvoidMet           int // meetings of pairs to keep apart: 0
}

// Measure returns s's Report for cfg.
func Measure(cfg Config, s Seating) Report {
	n, seats := cfg.Players, cfg.seats()
	rep := Report{Rounds: len(s.Rounds), SeatLow: cfg.Games / seats, SeatHigh: (cfg.Games + seats - 1) / seats}
	games := make([]int, n+1)
	seat := make([]int, (n+1)*seats)
	met := make([]int, (n+1)*(n+1))
	for _, round := range s.Rounds {
		for _, tab := range round {
			for k, p := range tab {
				games[p]++
				seat[p*seats+k]++
				for _, q := range tab[k+1:] {
					met[p*(n+1)+q]++
					met[q*(n+1)+p]++
				}
			}
		}
	}
	avoid := map[[2]int]bool{}
	for _, p := range cfg.Avoid {
		avoid[[2]int{min(p[0], p[1]), max(p[0], p[1])}] = true
	}
	rep.GamesMin, rep.GamesMax = extremes(games[1:])
	rep.SeatMin, rep.SeatMax = extremes(seat[seats:])
	sit := make([]int, n)
	for p := 1; p <= n; p++ {
		sit[p-1] = len(s.Rounds) - games[p]
	}
	rep.SitOutMin, rep.SitOutMax = extremes(sit)
	var pairs []int
	total := 0
	for p := 1; p <= n; p++ {
		for q := p + 1; q <= n; q++ {
			m := met[p*(n+1)+q]
			if avoid[[2]int{p, q}] {
				rep.AvoidMet += m
				continue
			}
			pairs = append(pairs, m)
			total += m
		}
	}
	rep.PairMin, rep.PairMax = extremes(pairs)
	if len(pairs) > 0 {
		rep.PairLow, rep.PairHigh = total/len(pairs), (total+len(pairs)-1)/len(pairs)
		rep.PairMean = float64(total) / float64(len(pairs))
	}
	return rep
}

func extremes(a []int) (lo, hi int) {
	if len(a) == 0 {
		return 0, 0
	}
	lo, hi = a[0], a[0]
	for _, x := range a[1:] {
		lo, hi = min(lo, x), max(hi, x)
	}
	return lo, hi
}
