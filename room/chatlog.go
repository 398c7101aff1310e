package room

// This file is the table's chat kept for connections that come later: a
// new tab, a reconnect after a dropped connection or a reload, a late
// spectator asks for the chat so far in pages (history.go), which the room
// answers from the lines it keeps here and, older ones, from the store.
//
// Every line is also kept with the game, in the store (store.Chats), before
// anyone is sent it: a line the store does not take is refused (with
// CodeInternal, or CodeChatFull past store.MaxChatLines) and nobody reads
// it. A mafia line is stored when it is posted, not when its tick sends it,
// so that a refusal reaches its sender. A room resumed after a restart
// loads its last chatKept lines; a
// finished game's record (Record) holds every line, of every chat, with
// where in the game it was said. With a store that keeps no chat, the
// lines are kept in memory only, as they were before, and a restart
// forgets them.

import (
	"context"
	"errors"

	"mafia/engine"
	"mafia/store"
)

// chatKept is how many of the last lines the room keeps in memory.
const chatKept = 200

// chatLine is a line of chat that has gone out (for history pages, and for
// the record when the store keeps no chat).
type chatLine struct {
	line store.ChatLine
}

// keepChat keeps a line that has gone out, in the order the lines were
// posted (a mafia line, kept when its tick sends it, goes before the lines
// posted after it), dropping the oldest beyond chatKept.
func (r *Room) keepChat(l store.ChatLine) {
	r.chatLog = append(r.chatLog, chatLine{line: l})
	for i := len(r.chatLog) - 1; i > 0 && r.chatLog[i-1].line.Seq > l.Seq; i-- {
		r.chatLog[i-1], r.chatLog[i] = r.chatLog[i], r.chatLog[i-1]
	}
	if len(r.chatLog) > chatKept {
		r.chatLog = append(r.chatLog[:0:0], r.chatLog[len(r.chatLog)-chatKept:]...)
	}
}

// newChatLine is a line seat posts in channel now, placed in the game.
func (r *Room) newChatLine(channel string, seat engine.Seat, text string) store.ChatLine {
	l := store.ChatLine{Channel: channel, Seat: int(seat), Name: r.seats[seat].name, Text: text,
		At: r.cfg.Clock.Now(), Log: len(r.log), Phase: "lobby", Seq: r.chatSeq}
	if g := r.game; g != nil {
		l.Round, l.Phase = g.Round(), g.Phase().String()
	}
	return l
}

// storeChat makes a line durable with the game before anyone reads it. Like the events (save), it
// waits on the room's life.
func (r *Room) storeChat(l store.ChatLine) error {
	if err := r.movedErr(); err != nil {
		return err
	}
	err := r.chats.AppendChat(r.life, r.id, l)
	switch {
	case err == nil:
		r.chatSeq++
		return nil
	case errors.Is(err, store.ErrChatFull):
		return &engine.Error{Code: CodeChatFull, N: store.MaxChatLines}
	case r.fencedOut(err):
		return errCode(CodeMoved) // nobody reads it
	case r.givenUp("append chat", err):
		return r.stoppedErr()
	}
	r.cfg.Log.Error("append chat", "err", err)
	return errCode(CodeInternal)
}

// loadChat keeps the last chatKept lines of the stored chat, for a room
// resumed after a restart.
func (r *Room) loadChat(ctx context.Context) error {
	lines, err := r.chats.Chat(ctx, r.id, chatKept)
	if err != nil {
		return err
	}
	for _, l := range lines {
		r.keepChat(l)
		r.chatSeq = l.Seq + 1
	}
	return nil
}

// dropMafiaLines forgets the mafia's lines still waiting for a tick when
// the night is over: nobody is sent them now, but they were said (and
// stored), so they are kept for the end as the store keeps them.
func (r *Room) dropMafiaLines() {
	for _, ln := range r.mafiaLines {
		r.keepChat(ln.line)
	}
	r.mafiaLines = nil
}
