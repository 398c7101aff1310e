package room

// This file serves what a game leaves behind once it is over.

import (
	"context"
	"mafia/engine"
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
