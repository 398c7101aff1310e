package clubhttp

// This file answers an account's own page with its tables in its clubs'
// online tournaments (account.HandlerConfig.Tables): what GET …/mine
// answers for one tournament, for every tournament of every club whose
// roster entry is linked to the account.

import (
	"context"

	"mafia/account"
	"mafia/club"
	"mafia/tournament"
)

// PlayerTables is the account's tables, in its clubs' online tournaments,
// in the latest round opened online while the table waits for its players
// or plays (a finished one is left out), for its own page.
func (h *Handler) PlayerTables(ctx context.Context, id int64) ([]account.TournamentTableJSON, error) {
	out := []account.TournamentTableJSON{}
	if h.online == nil {
		return out, nil
	}
	cs, err := h.members().AccountClubs(ctx, id)
	if err != nil {
		return out, err
	}
	for _, c := range cs {
		if c.Person == "" {
			continue
		}
		items, err := h.cfg.Store.ClubTournaments(ctx, c.Club)
		if err != nil {
			return out, err
		}
		for _, it := range items {
			if it.State != tournament.StateRounds && it.State != tournament.StateFinal {
				continue
			}
			if err := h.syncOnline(ctx, c.Club, it.ID); err != nil {
				return out, err
			}
			_, t, roster, err := h.loadTournament(ctx, c.Club, it.ID)
			if err != nil {
				return out, err
			}
			row, ok, err := h.playerTable(ctx, t, roster, c.Person)
			if err != nil {
				return out, err
			}
			if ok {
				row.Club = c.Club
				out = append(out, row)
			}
		}
	}
	return out, nil
}

// playerTable is person's table in t's latest round opened online, if it
// waits or plays.
func (h *Handler) playerTable(ctx context.Context, t tournament.Tournament, roster *club.Roster, person string) (account.TournamentTableJSON, bool, error) {
	if t.Online == nil {
		return account.TournamentTableJSON{}, false, nil
	}
	for _, p := range t.Players {
		if roster.Resolve(p) != person {
			continue
		}
		round, table, seat, ok := t.Seat(p)
		if !ok {
			return account.TournamentTableJSON{}, false, nil
		}
		tb := t.Rounds[round-1].Tables[table-1]
		st, err := h.tableState(ctx, tb, roster)
		if err != nil || st.State == onlineFinished {
			return account.TournamentTableJSON{}, false, err
		}
		return account.TournamentTableJSON{Tournament: t.ID, Name: t.Name, Round: round, Table: table, Seat: seat,
			Link: TableLink(tb.Online), State: st.State}, true, nil
	}
	return account.TournamentTableJSON{}, false, nil
}
