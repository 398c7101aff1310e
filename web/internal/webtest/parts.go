package webtest

import ()

// SeatsOf returns a view's seats 1..n, alive and without fouls, each with
// the fields f gives it added.
func SeatsOf(n int, f func(s int) map[string]any) []map[string]any {
	out := make([]map[string]any, n)
	for s := 1; s <= n; s++ {
		m := map[string]any{"seat": s, "alive": true, "fouls": 0}
		if f != nil {
			for k, v := range f(s) {
				m[k] = v
			}
		}
		out[s-1] = m
	}
	return out
}

// View returns a welcome frame of a seven-seat table of bots for seat: its
// view (role, phase, speaker, legal moves, extra fields added) and the
// lobby.
func View(seat int, role, phase string, speaker int, legal map[string]any, extra map[string]any) map[string]any {
	v := map[string]any{"seat": seat, "players": 7, "phase": phase, "round": 1, "speaker": speaker, "role": role,
		"candidates": []int{}, "victims": []int{}, "seats": SeatsOf(7, nil), "legal": legal, "rules": map[string]string{}}
	for k, x := range extra {
		v[k] = x
	}
	return map[string]any{"seat": seat, "view": v, "events": []any{}, "busy": false, "paused": false,
		"lobby": map[string]any{"players": 7, "seats": SeatsOf(7, func(s int) map[string]any { return map[string]any{"taken": true, "bot": true} })}}
}
