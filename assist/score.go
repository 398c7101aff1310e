package assist

// This file is a game's part for its club: the score the host records (the
// best move, the extra points) and the game as the club counts it.

import (
	"context"
	"errors"
	"net/http"

	"mafia/assist/record"
	"mafia/club"
	"mafia/engine"
	"mafia/store"
)

// gameScore is what the host records of a game for the club: the
// first-killed player's best move and the extra points, kept in the game's
// data beside its entries (inPerson.Score).
type gameScore struct {
	BestMove *club.BestMove `json:"best_move,omitempty"`
	Extra    []club.Extra   `json:"extra,omitempty"`
}

// scoreRequest is the body of PUT /host/api/games/{id}/score: the whole
// score as it stands (a best move of null takes it back).
type scoreRequest struct {
	BestMove *club.BestMove `json:"best_move"`
	Extra    []club.Extra   `json:"extra"`
}

// scoreReply answers with the score and every seat's points under the
// club's rules (the defaults for a game of no club).
type scoreReply struct {
	Score   gameScore    `json:"score"`
	Lines   []club.Line  `json:"lines"`
	Scoring club.Scoring `json:"scoring"`
}

// setScore answers PUT /host/api/games/{id}/score for the game's host: the
// best move (which only a first-killed player makes: club.CheckBestMove)
// and the extra points (within the club's range) are checked against the
// game's record and kept with it.
func (h *Handler) setScore(w http.ResponseWriter, r *http.Request) {
	if h.foreign(w, r) {
		return
	}
	id := r.PathValue("id")
	var req scoreRequest
	if err := decode(r, &req, 4<<10); err != nil {
		h.fail(w, r, err, nil)
		return
	}
	gm, ok := h.hostGame(w, r, id)
	if !ok {
		return
	}
	defer h.unlock(gm)
	sc, err := h.scoringOf(r.Context(), &gm.rec.Settings)
	if err != nil {
		h.fail(w, r, err, nil)
		return
	}
	score := gameScore{BestMove: req.BestMove, Extra: req.Extra}
	g := clubGameOf(gm.table, &gm.rec, record.Build(&gm.rec.Settings, gm.log), gm.log)
	if score.BestMove != nil {
		if err := g.CheckBestMove(*score.BestMove); err != nil {
			h.fail(w, r, err, nil)
			return
		}
	}
	if err := sc.CheckExtra(&g, score.Extra); err != nil {
		h.fail(w, r, err, nil)
		return
	}
	old := gm.rec
	gm.rec.Score = &score
	t := gm.table
	t.Data, t.UpdatedAt = gm.data(), h.cfg.Now().UTC()
	if err := h.cfg.Store.UpdateTable(r.Context(), t); err != nil {
		gm.rec = old
		h.fail(w, r, err, nil)
		return
	}
	gm.table = t
	g.BestMove, g.Extra = score.BestMove, score.Extra
	writeJSON(w, http.StatusOK, scoreReply{Score: score, Lines: sc.Score(&g), Scoring: sc})
}

// scoringOf is the scoring rules of a game's club (the defaults for a game
// of no club, or of a club no longer kept).
func (h *Handler) scoringOf(ctx context.Context, s *record.Settings) (club.Scoring, error) {
	if s.Club == nil || s.Club.Club == "" {
		return club.DefaultScoring(), nil
	}
	sc, err := h.cfg.Clubs.Scoring(ctx, s.Club.Club)
	if errors.Is(err, store.ErrNotFound) {
		return club.DefaultScoring(), nil
	}
	return sc, err
}

// clubGameOf is a game as the club counts it: the record's seats and fates
// (in the order the players left), the result, the club's fields and the
// host's score. Its day is the one the host's phone gave, else the day
// (UTC) the game was made.
func clubGameOf(t store.Table, rec *inPerson, p *record.Protocol, log []engine.Event) club.Game {
	g := club.Game{ID: t.ID, Date: t.CreatedAt.UTC().Format(club.DateLayout), Name: t.Name, Rules: p.RulesCode}
	if p.Ended {
		g.Winner = p.Winner
	}
	if c := rec.Settings.Club; c != nil {
		g.Table, g.Number, g.Host, g.Referee = c.Table, c.Number, c.Host, c.Referee
		if c.Day != "" {
			g.Date = c.Day
		}
	}
	order := map[int]int{}
	for _, e := range log {
		if e.Kind == engine.EvPlayerOut {
			if _, ok := order[int(e.Target)]; !ok {
				order[int(e.Target)] = len(order) + 1
			}
		}
	}
	for _, st := range p.Seats {
		s := club.Seat{Seat: st.Seat, Person: st.Person, Name: st.Name, Role: st.Role}
		if st.Out != nil {
			s.Out, s.OutOrder, s.OutRound = st.Out.Cause, order[st.Seat], st.Out.Round
		}
		g.Seats = append(g.Seats, s)
	}
	if rec.Score != nil {
		g.BestMove, g.Extra = rec.Score.BestMove, rec.Score.Extra
	}
	return g
}

// checkClubGame refuses a new game that names a club unless the request
// carries the club's token (or is logged in as an owner or host of it) and
// every roster id is on its roster (Clubs.HostRoster).
func (h *Handler) checkClubGame(r *http.Request, s *record.Settings, token string) error {
	if s.Club == nil || s.Club.Club == "" {
		return nil
	}
	roster, err := h.cfg.Clubs.HostRoster(r, s.Club.Club, token)
	if errors.Is(err, store.ErrNotFound) {
		return &engine.Error{Code: record.CodeBadSettings, Name: "club", Value: "club"}
	}
	if err != nil {
		return err
	}
	for _, p := range s.Club.People {
		if p != "" && !roster.Has(p) {
			return &engine.Error{Code: record.CodeBadSettings, Name: "club", Value: "people"}
		}
	}
	return nil
}
