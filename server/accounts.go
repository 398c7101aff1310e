package server

// This file seats players as their accounts (package account).

import (
	"context"
	"net/http"
	"strings"
	"time"

	"mafia/account"
	"mafia/room"
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
		o, err := s.cfg.Store.AccountByID(r.Context(), jr.Owner)
		if err != nil {
			return err
		}
		jr.OwnerName = o.Name
	}
	return nil
}

// ownerOf is room.Config.OwnerOf: the owner of a bot account, read from
// the store's accounts (ok false when it cannot be read).
func (s *Server) ownerOf(bot int64) (int64, string, bool) {
	accts := s.cfg.Store
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	b, err := accts.AccountByID(ctx, bot)
	if err != nil || b.Owner == 0 {
		return 0, "", false
	}
	o, err := accts.AccountByID(ctx, b.Owner)
	if err != nil {
		return 0, "", false
	}
	return o.ID, o.Name, true
}
