package seating

import (
	"strconv"
	"strings"

	"mafia/engine"
)

// ParseAvoid reads pairs to keep apart written "a-b,c-d" (spaces allowed;
// "" is none); a pair that is not two numbers is refused with
// CodeBadAvoid, and Config.Check refuses numbers that are no player's.
func ParseAvoid(s string) ([][2]int, error) {
	var out [][2]int
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		a, b, ok := strings.Cut(f, "-")
		x, err1 := strconv.Atoi(strings.TrimSpace(a))
		y, err2 := strconv.Atoi(strings.TrimSpace(b))
		if !ok || err1 != nil || err2 != nil {
			return nil, &engine.Error{Code: CodeBadAvoid, Value: f}
		}
		out = append(out, [2]int{x, y})
	}
	return out, nil
}
