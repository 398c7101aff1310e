package room

// This file serves what a game leaves behind once it is over.

import (
	"context"

	"mafia/engine"
	"mafia/internal/secret"
	"mafia/store"
)

// EndedLog returns the whole log of a game that is over, every secret
// included (at the end every card is revealed; the timeline of the game is
// everyone's), and the number of players. While the game goes on it is
// refused with CodeNotOver: the log holds the night's secrets.
func (r *Room) EndedLog(ctx context.Context) ([]engine.Event, int, error) {
	var log []engine.Event
	var n int
	var err error
	derr := r.do(ctx, func() {
		if r.game == nil || !r.game.Ended() {
			err = errCode(CodeNotOver)
			return
		}
		log = append([]engine.Event(nil), r.log...)
		n = r.game.Players()
	})
	if derr != nil {
		return nil, 0, derr
	}
	return log, n, err
}

// Record returns, for one of its players, the whole log of a game that is
// over (every card, every night action and its answer, every vote, in
// order), the number of players, and the table's whole chat: every line of
// every channel, in order, with where in the game it was said (from the
// store; with a store that keeps no chat, the lines this room kept). A
// token that is neither a seat's of this table nor its host's is refused
// with CodeBadToken whatever the game's state; a player's token while the
// game goes on with CodeNotOver, the same refusal for every seat, so that
// it says nothing of the card the token holds.
func (r *Room) Record(ctx context.Context, token string) ([]engine.Event, int, []store.ChatLine, error) {
	var log []engine.Event
	var chat []store.ChatLine
	var n int
	var err error
	derr := r.do(ctx, func() {
		h := secret.Hash(token)
		if token == "" || (h != r.table.HostToken && r.seatByHash(h) == 0) {
			err = errCode(CodeBadToken)
			return
		}
		if r.game == nil || !r.game.Ended() {
			err = errCode(CodeNotOver)
			return
		}
		log = append([]engine.Event(nil), r.log...)
		n = r.game.Players()
	})
	if derr != nil {
		return nil, 0, nil, derr
	}
	if err != nil {
		return nil, 0, nil, err
	}
	// Read beside the room, not in it: the game is over, and a line said
	// after this read is after the record too.
	if chat, err = r.chats.Chat(ctx, r.id, 0); err != nil {
		r.cfg.Log.Error("read chat for the record", "err", err)
		return nil, 0, nil, errCode(CodeInternal)
	}
	return log, n, chat, nil
}
