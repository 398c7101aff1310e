package server

import (
	"context"
	"errors"

	"mafia/engine"
	"mafia/room"
	"mafia/store"
)

// publicRecord is the record of a public table's finished game for anyone
// (the game's review): the whole log, as GET /log gives it to anyone once
// the game is over, and the whole chat from the store. While the game goes
// on it is refused with not_over, as a player's request is.
func (s *Server) publicRecord(ctx context.Context, rm *room.Room) ([]engine.Event, int, []store.ChatLine, error) {
	log, players, err := rm.EndedLog(ctx)
	if err != nil {
		return nil, 0, nil, err
	}
	var chat []store.ChatLine
	if c, ok := s.cfg.Store.(store.Chats); ok {
		if chat, err = c.Chat(ctx, rm.ID(), 0); err != nil {
			s.log.Error("read chat for the record", "table", rm.ID(), "err", err)
			return nil, 0, nil, &engine.Error{Code: room.CodeInternal}
		}
	}
	return log, players, chat, nil
}

// hasCode reports whether err is a coded refusal with code c.
func hasCode(err error, c engine.Code) bool {
	var e *engine.Error
	return errors.As(err, &e) && e.Code == c
}
