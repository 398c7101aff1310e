package seating

import (
	"strconv"
	"testing"
)

// BenchmarkGenerate: the time of one seating, 10 games each, for 10 to 100
// players at tables of 10 (docs/tournaments.md).
func BenchmarkGenerate(b *testing.B) {
	for _, c := range []Config{{Players: 10, Tables: 1, Games: 10}, {Players: 20, Tables: 2, Games: 10}, {Players: 25, Tables: 2, Games: 8},
		{Players: 50, Tables: 5, Games: 10}, {Players: 100, Tables: 10, Games: 10}} {
		b.Run(strconv.Itoa(c.Players)+"x"+strconv.Itoa(c.Tables), func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				c.Seed = uint64(i)
				if _, err := Generate(c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
