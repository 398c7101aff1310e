package server

import (
	"context"
	"errors"

	"mafia/engine"
	"mafia/room"
	"mafia/store"
)

// finishedGame is the one rule of who may read a finished game, for GET
// /record and GET /log alike (so that they cannot disagree): the holder of
// one of the table's seats' tokens or its host's, and at a public table
// anyone. It returns the whole log (every card, every night action), the
// number of players and the whole chat. Refusals: bad_token to any other
// request at a private table, whatever the game's state; not_over while
// the game goes on (to its players, and to anyone at a public table: the
// same bytes).
func (s *Server) finishedGame(ctx context.Context, rm *room.Room, token string) ([]engine.Event, int, []store.ChatLine, error) {
	log, players, chat, err := rm.Record(ctx, token)
	if err != nil && rm.Lobby().Public && hasCode(err, room.CodeBadToken) {
		return s.publicRecord(ctx, rm)
	}
	return log, players, chat, err
}

// publicRecord is the record of a public table's finished game for anyone
// (finishedGame): the whole log and the whole chat from the store. While
// the game goes on it is refused with not_over, as a player's request is.
func (s *Server) publicRecord(ctx context.Context, rm *room.Room) ([]engine.Event, int, []store.ChatLine, error) {
	log, players, err := rm.EndedLog(ctx)
	if err != nil {
		return nil, 0, nil, err
	}
	chat, err := s.cfg.Store.Chat(ctx, rm.ID(), 0)
	if err != nil {
		s.log.Error("read chat for the record", "table", rm.ID(), "err", err)
		return nil, 0, nil, &engine.Error{Code: room.CodeInternal}
	}
	return log, players, chat, nil
}

// hasCode reports whether err is a coded refusal with code c.
func hasCode(err error, c engine.Code) bool {
	var e *engine.Error
	return errors.As(err, &e) && e.Code == c
}
