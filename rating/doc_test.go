package rating

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
)

// TestDocsWorkedExample computes the worked example of docs/ratings.md and
// finds each of its numbers on the page.
func TestDocsWorkedExample(t *testing.T) {
	page, err := os.ReadFile("../docs/ratings.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(page)
	f := func(x float64) string { return fmt.Sprintf("%.3f", x) }
	want := func(what, s string) {
		if !strings.Contains(doc, s) {
			t.Errorf("docs/ratings.md lacks %s: %s", what, s)
		}
	}
	p := ForMafia()
	s2 := p.Sigma*p.Sigma + p.Tau*p.Tau
	town, mafia := s2/7, s2/2
	want("the widened variance", f(s2))
	want("the town's variance", f(town))
	want("the mafia's variance", f(mafia))
	want("c", "= "+f(math.Sqrt(town+mafia+2*p.Beta*p.Beta)))

	us, err := Game(p, table("ttmttmtttm", 3), Result{Winner: Mafia}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := byKey(us)
	line := func(r Rating) string {
		return fmt.Sprintf("mu %s, sigma %s, ordinal %s", f(r.Mu), f(r.Sigma), f(r.Ordinal()))
	}
	want("a mafioso's", line(m[Key{"F", Overall}].After))
	want("a town player's", line(m[Key{"A", Overall}].After))
	want("the leaver's", line(m[Key{"C", Overall}].After))
	for _, k := range []Key{{"A", AsTown}, {"F", AsMafia}, {"C", AsMafia}} {
		if side, all := m[k].After, m[Key{k.Player, Overall}].After; side != all {
			t.Errorf("%v: side %v, overall %v: the page says they are the same", k, side, all)
		}
	}
	us, _ = Game(p, table("ttmttmtttm"), Result{Winner: Town}, nil)
	m = byKey(us)
	short := func(r Rating) string { return fmt.Sprintf("mu %s, sigma %s", f(r.Mu), f(r.Sigma)) }
	want("a town player's, the town winning", short(m[Key{"A", Overall}].After))
	want("a mafioso's, the town winning", short(m[Key{"C", Overall}].After))
}
