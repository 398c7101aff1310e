package seating

import "mafia/rng"

// assignSeats numbers the seats of every table of every round (tables:
// rounds × tables × players, in any order) so that each player has each
// seat floor(G/S) or ceil(G/S) times. It colours the edges of the
// bipartite multigraph between players' blocks (a player's games in round
// order, S to a block) and table-games with S colours, a colour being a
// seat: each table-game has degree S and each block at most S, so by
// König's theorem S colours suffice, and an edge is coloured by swapping
// two colours along an alternating path when its ends have no free colour
// in common.
func assignSeats(cfg Config, tables [][][]int, src *rng.Source) [][][]int {
	s, nt := cfg.Seats, cfg.Tables
	blocks := (cfg.Games + s - 1) / s
	type edge struct{ left, right, player, color int }
	var edges []edge
	played := make([]int, cfg.Players+1)
	for r, round := range tables {
		for t, tab := range round {
			for _, p := range tab {
				edges = append(edges, edge{left: (p-1)*blocks + played[p]/s, right: r*nt + t, player: p, color: -1})
				played[p]++
			}
		}
	}
	atL := filled(cfg.Players * blocks * s)
	atR := filled(len(tables) * nt * s)
	ends := func(left bool, node int) []int {
		if left {
			return atL[node*s : node*s+s]
		}
		return atR[node*s : node*s+s]
	}
	free := func(at []int) int {
		off := src.Intn(s)
		for k := 0; k < s; k++ {
			if c := (off + k) % s; at[c] < 0 {
				return c
			}
		}
		return -1 // not reached: no node has more than s edges
	}
	var path []int
	for _, e := range shuffled(len(edges), src) {
		u, v := ends(true, edges[e].left), ends(false, edges[e].right)
		a := free(u)
		if v[a] >= 0 {
			// Flip the path from v whose edges take colours a, b, a, …: it
			// cannot reach u (a is free there), and leaves a free at v.
			b := free(v)
			path = path[:0]
			node, left, c := edges[e].right, false, a
			for {
				f := ends(left, node)[c]
				if f < 0 {
					break
				}
				path = append(path, f)
				if left {
					node = edges[f].right
				} else {
					node = edges[f].left
				}
				left = !left
				if c == a {
					c = b
				} else {
					c = a
				}
			}
			for _, f := range path {
				ends(true, edges[f].left)[edges[f].color] = -1
				ends(false, edges[f].right)[edges[f].color] = -1
			}
			for _, f := range path {
				if edges[f].color == a {
					edges[f].color = b
				} else {
					edges[f].color = a
				}
				ends(true, edges[f].left)[edges[f].color] = f
				ends(false, edges[f].right)[edges[f].color] = f
			}
		}
		edges[e].color = a
		u[a], v[a] = e, e
	}
	out := make([][][]int, len(tables))
	for r := range out {
		out[r] = make([][]int, nt)
		for t := range out[r] {
			out[r][t] = make([]int, s)
		}
	}
	for _, e := range edges {
		out[e.right/nt][e.right%nt][e.color] = e.player
	}
	return out
}

// filled returns n places holding -1 (no edge).
func filled(n int) []int {
	a := make([]int, n)
	for i := range a {
		a[i] = -1
	}
	return a
}
