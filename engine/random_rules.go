package engine

import (
	"strconv"

	"mafia/rng"
)

// RandomRules draws every option at random from src, for tests and
// simulations over house rules: a choice uniformly among its values, a
// number (foul_limit, round_limit) half the time its default and else one
// of its first eleven values (games that meet the limit).
func RandomRules(src *rng.Source) Ruleset {
	r := DefaultRules()
	for _, o := range Options {
		v := ""
		if o.Values == nil {
			v = strconv.Itoa(o.Min + src.Intn(min(o.Max-o.Min+1, 11)))
			if src.Intn(2) == 0 {
				v, _ = DefaultRules().Get(o.Name)
			}
		} else {
			v = o.Values[src.Intn(len(o.Values))]
		}
		if err := r.Set(o.Name, v); err != nil {
			panic("engine: an option's own value refused: " + err.Error())
		}
	}
	return r
}
