package clubhttp

import (
	"context"

	"mafia/club"
)

// Games are the games a club counts, as their keeper reads them: the host's
// assistant keeps the in-person games (assist.ClubGames offers them), and
// the club keeps only its index of them (store.Clubs.ClubGames). The club
// asks for each game of its index in turn.
type Games interface {
	// ClubGame is the game of a table as a club counts it (club.Game), and
	// whether it counts: false for a game that is not finished, no longer
	// kept or cannot be read (the keeper logs the last).
	ClubGame(ctx context.Context, tableID string) (club.Game, bool)
}

// clubGames reads a club's finished games as the club counts them; a game
// that cannot be read is left out (the others still count).
func (h *Handler) clubGames(ctx context.Context, clubID string) ([]club.Game, error) {
	index, err := h.clubs().ClubGames(ctx, clubID)
	if err != nil {
		return nil, err
	}
	out := []club.Game{}
	if h.cfg.Games == nil {
		return out, nil
	}
	for _, cg := range index {
		if g, ok := h.cfg.Games.ClubGame(ctx, cg.TableID); ok {
			out = append(out, g)
		}
	}
	return out, nil
}
