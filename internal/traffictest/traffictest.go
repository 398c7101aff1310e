// Package traffictest is for tests only: it compares what an observer of
// the network sees of two connections (each frame's moment on the room's
// clock and its length), so that the secrecy tests of server/ and the
// attack suite judge traffic by one rule. It must not read frames' contents
// or know the game: a seat's traffic is a list of Frames.
package traffictest

import (
	"fmt"
	"sort"
	"time"
)

// Frame is one frame as an observer sees it: its moment (the room's clock,
// since the game's start) and its length in bytes.
type Frame struct {
	At   time.Duration
	Size int
}

// Moments groups frames by moment, each moment's lengths sorted (within a
// moment the order depends on which seat asked first, which is not a
// secret).
func Moments(frames []Frame) map[time.Duration][]int {
	out := map[time.Duration][]int{}
	for _, f := range frames {
		out[f.At] = append(out[f.At], f.Size)
	}
	for _, sizes := range out {
		sort.Ints(sizes)
	}
	return out
}

// Differ returns the first moment at which two connections' frames differ
// (their count or their lengths), or nil when an observer cannot tell them
// apart.
func Differ(a, b []Frame) error {
	ma, mb := Moments(a), Moments(b)
	var at []time.Duration
	for d := range ma {
		at = append(at, d)
	}
	for d := range mb {
		if _, ok := ma[d]; !ok {
			at = append(at, d)
		}
	}
	sort.Slice(at, func(i, j int) bool { return at[i] < at[j] })
	for _, d := range at {
		if fmt.Sprint(ma[d]) != fmt.Sprint(mb[d]) {
			return fmt.Errorf("at %v: frames of %v bytes against %v", d, ma[d], mb[d])
		}
	}
	return nil
}
