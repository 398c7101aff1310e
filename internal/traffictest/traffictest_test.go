package traffictest

import (
	"testing"
	"time"
)

func TestDifferIgnoresTheOrderWithinAMomentOnly(t *testing.T) {
	a := []Frame{{0, 10}, {0, 20}, {time.Second, 30}}
	for _, tc := range []struct {
		name string
		b    []Frame
		same bool
	}{
		{"the same frames", []Frame{{0, 10}, {0, 20}, {time.Second, 30}}, true},
		{"another order within a moment", []Frame{{0, 20}, {0, 10}, {time.Second, 30}}, true},
		{"one byte longer", []Frame{{0, 10}, {0, 21}, {time.Second, 30}}, false},
		{"one frame more", []Frame{{0, 10}, {0, 20}, {time.Second, 30}, {time.Second, 30}}, false},
		{"a frame at another moment", []Frame{{0, 10}, {time.Second, 20}, {time.Second, 30}}, false},
		{"a moment the other lacks", []Frame{{0, 10}, {0, 20}, {time.Second, 30}, {2 * time.Second, 5}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Differ(a, tc.b)
			if (err == nil) != tc.same {
				t.Errorf("Differ = %v, want same=%v", err, tc.same)
			}
			if err2 := Differ(tc.b, a); (err2 == nil) != (err == nil) {
				t.Errorf("Differ is not symmetric: %v against %v", err, err2)
			}
		})
	}
}
