package server

// This file seats players as their accounts (package account).

import (
	"net/http"
	"strings"

	"mafia/account"
	"mafia/room"
	"mafia/store"
)

// asAccount makes a join the account's whose credential the request
// carries: a login (cookie or bearer) sits as the account, by its name; a
// bot account's token as that bot, its seat shown as a bot's. A bearer
// credential that has ended is refused (a program is told); a login
// cookie that has ended leaves the join a guest's, as without one.
func (s *Server) asAccount(r *http.Request, jr *room.JoinRequest) error {
	if s.cfg.Accounts == nil {
		return nil
	}
	tok := account.TokenOf(r)
	if tok == "" {
		return nil
	}
	p, err := s.cfg.Accounts.Authenticate(r.Context(), tok)
	if err != nil {
		if b, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && account.IsCredential(strings.TrimSpace(b)) {
			return err
		}
		return nil
	}
	jr.Name, jr.Account, jr.BotAccount = p.Account.Name, p.Account.ID, p.Bot()
	if p.Bot() {
		jr.Owner = p.Account.Owner
		// The table sees whose bot it is (wire.SeatInfo.Owner).
		accts, ok := s.cfg.Store.(store.Accounts)
		if !ok {
			return nil
		}
		o, err := accts.AccountByID(r.Context(), jr.Owner)
		if err != nil {
			return err
		}
		jr.OwnerName = o.Name
	}
	return nil
}
