package rating

import (
	"math"
	"testing"
)

// The vectors below are the published examples of the OpenSkill
// implementations of the method, read (not copied) from their tests:
//
//   - openskill.js, src/models/__tests__/plackett-luce.test.ts and
//     bradley-terry-full.test.ts at commit 0bf4361f809555caec924e97f9c596eef579e6f8
//     (github.com/philihp/openskill.js): the model called directly, so no
//     tau; mu 25, sigma 25/3, beta 25/6; places in the order given.
//   - openskill.py, tests/models/data/plackettluce.json and
//     bradleyterryfull.json at commit 65a675d21d9a0d5405731385e83be9aa781537ec
//     (github.com/vivekjoshy/openskill.py), the cases normal, ranks,
//     limit_sigma and ties as tests/models/generate.py makes them: a model of
//     the random mu and sigma the file records, beta 25/6, tau 25/300.
//   - openskill.py's README (the same repository, an earlier version): the
//     2-against-2 game of a1, a2 against b1, b2.

type vector struct {
	name   string
	params Params
	teams  [][]Rating
	ranks  []int
	want   [][]Rating
}

func same(n int, r Rating) []Rating {
	t := make([]Rating, n)
	for i := range t {
		t[i] = r
	}
	return t
}

func jsParams(m Model) Params {
	p := Defaults()
	p.Model, p.Tau = m, 0
	return p
}

func pyParams(m Model, mu, sigma float64) Params {
	p := Defaults()
	p.Model, p.Mu, p.Sigma = m, mu, sigma
	return p
}

func vectors() []vector {
	d := Rating{Mu: 25, Sigma: 25.0 / 3}
	pl, bt := jsParams(PlackettLuce), jsParams(BradleyTerryFull)
	plPy := pyParams(PlackettLuce, 20.35125162611535, 8.33148112355601)
	btPy := pyParams(BradleyTerryFull, 16.03354781649136, 12.429396412128556)
	limit := func(p Params) Params { p.LimitSigma = true; return p }
	r := func(mu, sigma float64) Rating { return Rating{mu, sigma} }
	shape := func(sizes []int, rs ...Rating) [][]Rating {
		out := make([][]Rating, len(sizes))
		for i, n := range sizes {
			out[i] = same(n, rs[i])
		}
		return out
	}
	pyTeams := func(p Params, sizes ...int) [][]Rating {
		out := make([][]Rating, len(sizes))
		for i, n := range sizes {
			out[i] = same(n, p.New())
		}
		return out
	}
	return []vector{
		// openskill.js plackett-luce.test.ts.
		{"js PL 2p FFA", pl, shape([]int{1, 1}, d, d), nil,
			shape([]int{1, 1}, r(27.63523138347365, 8.065506316323548), r(22.36476861652635, 8.065506316323548))},
		{"js PL 3p FFA", pl, shape([]int{1, 1, 1}, d, d, d), nil,
			shape([]int{1, 1, 1}, r(27.868876552746237, 8.204837030780652), r(25.717219138186557, 8.057829747583874), r(21.413904309067206, 8.057829747583874))},
		{"js PL 4p FFA", pl, shape([]int{1, 1, 1, 1}, d, d, d, d), nil,
			shape([]int{1, 1, 1, 1}, r(27.795084971874736, 8.263160757613477), r(26.552824984374855, 8.179213704945203), r(24.68943500312503, 8.083731307186588), r(20.96265504062538, 8.083731307186588))},
		{"js PL 5p FFA", pl, shape([]int{1, 1, 1, 1, 1}, d, d, d, d, d), nil,
			shape([]int{1, 1, 1, 1, 1}, r(27.666666666666668, 8.290556877154474), r(26.833333333333332, 8.240145629781066), r(25.72222222222222, 8.179996679645559), r(24.055555555555557, 8.111796013701358), r(20.72222222222222, 8.111796013701358))},
		{"js PL 3 teams of different sizes", pl, shape([]int{3, 1, 2}, d, d, d), nil,
			shape([]int{3, 1, 2}, r(25.939870821784513, 8.247641552260456), r(27.21366020491262, 8.274321317985242), r(21.84646897330287, 8.213058173195341))},
		// openskill.js bradley-terry-full.test.ts.
		{"js BT 2p FFA", bt, shape([]int{1, 1}, d, d), nil,
			shape([]int{1, 1}, r(27.63523138347365, 8.065506316323548), r(22.36476861652635, 8.065506316323548))},
		{"js BT 3p FFA", bt, shape([]int{1, 1, 1}, d, d, d), nil,
			shape([]int{1, 1, 1}, r(30.2704627669473, 7.788474807872566), r(25.0, 7.788474807872566), r(19.7295372330527, 7.788474807872566))},
		{"js BT 5p FFA", bt, shape([]int{1, 1, 1, 1, 1}, d, d, d, d, d), nil,
			shape([]int{1, 1, 1, 1, 1}, r(35.5409255338946, 7.202515895247076), r(30.2704627669473, 7.202515895247076), r(25.0, 7.202515895247076), r(19.729537233052703, 7.202515895247076), r(14.4590744661054, 7.202515895247076))},
		{"js BT 3 teams of different sizes", bt, shape([]int{3, 1, 2}, d, d, d), nil,
			shape([]int{3, 1, 2}, r(25.992743915179297, 8.19709997489984), r(28.48909130001799, 8.220848339985736), r(20.518164784802714, 8.127515465304823))},
		// openskill.py's README: a1, a2 beat b1, b2 (no tau then).
		{"py README 2 vs 2", pl, [][]Rating{{d, r(32.444, 5.123)}, {r(43.381, 2.421), r(25.188, 6.211)}}, nil,
			[][]Rating{{r(28.669648436582808, 8.071520788025197), r(33.83086971107981, 5.062772998705765)}, {r(43.071274808241974, 2.4166900452721256), r(23.149503312339064, 6.1378606973362135)}}},
		// openskill.py plackettluce.json.
		{"py PL normal", plPy, pyTeams(plPy, 1, 2), nil,
			shape([]int{1, 2}, r(23.855123082692877, 8.22447878583752), r(16.84738016953782, 8.179571171464575))},
		{"py PL ranks", plPy, pyTeams(plPy, 1, 2, 1, 2), []int{2, 1, 4, 3},
			shape([]int{1, 2, 1, 2}, r(22.35555943890167, 8.265434830225024), r(22.373451456616035, 8.258479912445537), r(18.311159777900297, 8.219170401234347), r(18.364835831043397, 8.112716571808326))},
		{"py PL limit_sigma", limit(plPy), pyTeams(plPy, 1, 2, 3), []int{2, 1, 3},
			shape([]int{1, 2, 3}, r(22.81664991565251, 8.28331609373364), r(22.74645120129216, 8.268148437657915), r(15.49065376140138, 8.18959307104567))},
		{"py PL ties", plPy, pyTeams(plPy, 1, 2, 3), []int{1, 2, 1},
			shape([]int{1, 2, 3}, r(21.63766806988004, 8.310709773172306), r(19.53956360838512, 8.268148437657915), r(19.87652320008089, 8.237522411103104))},
		// openskill.py bradleyterryfull.json.
		{"py BT normal", btPy, pyTeams(btPy, 1, 2), nil,
			shape([]int{1, 2}, r(20.686574848684717, 12.190916868103495), r(11.380520784298003, 12.090638819927161))},
		{"py BT ranks", btPy, pyTeams(btPy, 1, 2, 1, 2), []int{2, 1, 4, 3},
			shape([]int{1, 2, 1, 2}, r(22.58458782319289, 11.44990951618401), r(23.594511753367236, 11.47082891120956), r(7.329544012760081, 11.44990951618401), r(10.625547676645233, 11.47082891120956))},
		{"py BT limit_sigma", limit(btPy), pyTeams(btPy, 1, 2, 3), []int{2, 1, 3},
			shape([]int{1, 2, 3}, r(18.470824465419632, 12.064304058091345), r(21.768597131872525, 11.91450441624131), r(7.86122185218192, 11.999970481449761))},
		{"py BT ties", btPy, pyTeams(btPy, 1, 2, 3), []int{1, 2, 1},
			shape([]int{1, 2, 3}, r(22.368878389960223, 12.064304058091345), r(9.40905558180175, 11.91450441624131), r(16.32270947771211, 11.999970481449761))},
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func TestRateMatchesOpenSkillPublishedExamples(t *testing.T) {
	for _, v := range vectors() {
		got, err := Rate(v.params, v.teams, v.ranks)
		if err != nil {
			t.Fatalf("%s: %v", v.name, err)
		}
		for i := range v.want {
			for j := range v.want[i] {
				g, w := got[i][j], v.want[i][j]
				if !near(g.Mu, w.Mu) || !near(g.Sigma, w.Sigma) {
					t.Errorf("%s: team %d player %d = %v, want %v", v.name, i+1, j+1, g, w)
				}
			}
		}
	}
}

func TestOrdinalIsMuLessThreeSigma(t *testing.T) {
	// openskill.py's README: ordinal(mu=43.07, sigma=2.42) is 35.81.
	if got := (Rating{Mu: 43.07, Sigma: 2.42}).Ordinal(); !near(got, 35.81) {
		t.Fatalf("ordinal = %v, want 35.81", got)
	}
	if got := Defaults().New().Ordinal(); !near(got, 0) {
		t.Fatalf("a new player's ordinal = %v, want 0", got)
	}
}

func TestRateOfOneTeamChangesNothing(t *testing.T) {
	in := [][]Rating{{Defaults().New()}}
	got, err := Rate(Defaults(), in, nil)
	if err != nil || got[0][0] != in[0][0] {
		t.Fatalf("got %v, %v", got, err)
	}
}

func TestRateRefusesBadInput(t *testing.T) {
	p, d := Defaults(), Defaults().New()
	for name, c := range map[string]struct {
		teams [][]Rating
		ranks []int
	}{
		"no teams":       {nil, nil},
		"an empty team":  {[][]Rating{{d}, {}}, nil},
		"ranks too few":  {[][]Rating{{d}, {d}}, []int{1}},
		"zero sigma":     {[][]Rating{{d}, {{Mu: 25}}}, nil},
		"mu not finite":  {[][]Rating{{d}, {{Mu: math.NaN(), Sigma: 1}}}, nil},
		"sigma infinite": {[][]Rating{{d}, {{Mu: 1, Sigma: math.Inf(1)}}}, nil},
	} {
		if _, err := Rate(p, c.teams, c.ranks); err != ErrBadInput {
			t.Errorf("%s: err %v, want ErrBadInput", name, err)
		}
	}
}

func TestRateDoesNotModifyItsInput(t *testing.T) {
	d := Defaults().New()
	in := [][]Rating{{d, d}, {d}}
	if _, err := Rate(Defaults(), in, nil); err != nil {
		t.Fatal(err)
	}
	if in[0][0] != d || in[0][1] != d || in[1][0] != d {
		t.Fatalf("input changed: %v", in)
	}
}

func TestMeanStrengthStartsTeamsOfAnySizeEven(t *testing.T) {
	// A town of seven and a mafia of three, all new: neither side is
	// favoured, so a side gains by a win what it loses by a loss (with sums
	// the town of seven would be the favourite and gain almost nothing).
	p := Defaults()
	p.Strength, p.Tau = Mean, 0
	d := p.New()
	town, mafia := same(7, d), same(3, d)
	a, _ := Rate(p, [][]Rating{town, mafia}, nil)
	b, _ := Rate(p, [][]Rating{mafia, town}, nil)
	if won, lost := a[0][0].Mu-25, 25-b[1][0].Mu; !near(won, lost) {
		t.Fatalf("the town: +%v for a win, -%v for a loss", won, lost)
	}
	if won, lost := b[0][0].Mu-25, 25-a[1][0].Mu; !near(won, lost) {
		t.Fatalf("the mafia: +%v for a win, -%v for a loss", won, lost)
	}
	sum := Defaults()
	sum.Tau = 0
	s, _ := Rate(sum, [][]Rating{town, mafia}, nil)
	if s[0][0].Mu-25 > (a[0][0].Mu-25)/2 {
		t.Fatalf("sums: the town's win is worth %v, means %v", s[0][0].Mu-25, a[0][0].Mu-25)
	}
	// With teams of one player each the mean is the sum.
	q := p
	q.Strength = Sum
	x, _ := Rate(p, [][]Rating{{d}, {d}}, nil)
	y, _ := Rate(q, [][]Rating{{d}, {d}}, nil)
	if x[0][0] != y[0][0] || x[1][0] != y[1][0] {
		t.Fatalf("mean %v, sum %v", x, y)
	}
}
