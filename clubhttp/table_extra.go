package clubhttp

// This file serves the extra points of a tournament's tables (docs/club.md,
// Extra points at the tournament's tables): once a table's game is linked
// and over, a host of the club (the organiser) or the tournament's referee
// logged in with their account gives its seats their extra points on the
// organiser's screen. At a table played online they are the table's only
// extras; at a real table they replace, for the whole table, those its host
// gave on the assistant (tournament.Table.Extras), which count until then.

import (
	"context"
	"net/http"

	"mafia/club"
	"mafia/tournament"
)

// extraLimit bounds the body of a table's extra points.
const extraLimit = 4 << 10

// setTableExtra serves PUT .../rounds/{round}/tables/{table}/extra
// {"extra": [{"seat", "points"}]}: a host of the club (the organiser), or
// the tournament's referee logged in with their account (referee.go),
// gives the seats of a table, once its game is linked and over, their
// extra points (in place of those given before); the answer is the
// round's online state (its online tables; none at real tables).
func (h *Handler) setTableExtra(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Extra []club.Extra `json:"extra"`
	}
	if h.foreign(w, r) {
		return
	}
	if err := decode(r, &req, extraLimit); err != nil {
		h.fail(w, r, err)
		return
	}
	ctx, id := r.Context(), r.PathValue("t")
	c, acc, err := h.refereeAccess(r, id)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	n, err := pathInts(r, "round", "table")
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if err := h.syncOnline(ctx, c.ID, id); err != nil {
		h.fail(w, r, err)
		return
	}
	err = h.updateTournament(ctx, c.ID, id, func(ctx context.Context, t *tournament.Tournament, _ *club.Roster) error {
		if err := acc.refereeOf(t); err != nil {
			return err
		}
		var g *club.Game
		if n[0] >= 1 && n[0] <= len(t.Rounds) && n[1] >= 1 && n[1] <= len(t.Rounds[n[0]-1].Tables) {
			if cg, ok := h.tableGame(ctx, t.Rounds[n[0]-1].Tables[n[1]-1]); ok {
				g = &cg
			}
		}
		return t.SetExtra(n[0], n[1], g, req.Extra)
	})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.writeRound(w, r, c.ID, id, n[0])
}

// tableGame is the finished game linked to a tournament's table as the
// club reads it (the server's for a table played online, the assistant's
// at a real table), with its own extras; false when it has none.
func (h *Handler) tableGame(ctx context.Context, tb tournament.Table) (club.Game, bool) {
	switch {
	case tb.Game == "":
		return club.Game{}, false
	case tb.Online != "":
		if h.online == nil || tb.Game != tb.Online {
			return club.Game{}, false
		}
		return h.online.tables.ClubGame(ctx, tb.Game)
	case h.cfg.Games == nil:
		return club.Game{}, false
	}
	g, ok := h.cfg.Games.ClubGame(ctx, tb.Game)
	return g, ok && g.Winner != ""
}

// hostExtras are, for each round's table played at a real table whose
// game is linked, the extras its host gave on the assistant (nil for any
// other table): the organiser's screen shows them, and fills its form
// with them until the table's own are given.
func (h *Handler) hostExtras(ctx context.Context, t *tournament.Tournament) [][][]club.Extra {
	out := make([][][]club.Extra, len(t.Rounds))
	for r, round := range t.Rounds {
		out[r] = make([][]club.Extra, len(round.Tables))
		for n, tb := range round.Tables {
			if tb.Online != "" {
				continue
			}
			if g, ok := h.tableGame(ctx, tb); ok {
				out[r][n] = append([]club.Extra{}, g.Extra...)
			}
		}
	}
	return out
}
