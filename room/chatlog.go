package room

// This file is the table's chat kept for connections that come later: a
// new tab, a reconnect after a dropped connection or a reload, a late
// spectator. After its welcome a connection is sent again the last lines
// it may read (replays), as the chat frames they were:
//
//   - town: every line, to everyone;
//   - dead: to the dead, while the game goes on;
//   - after the end, every line of every chat to everyone.
//
// The mafia's lines are not sent again while the game goes on: a
// connection's frames after its welcome would then say whether its seat
// is of the mafia (the welcome itself is padded so that its length does
// not; chat.go).
//
// Every line is also kept with the game, in the store (store.Chats), before
// anyone is sent it: a line the store does not take is refused (with
// CodeInternal, or CodeChatFull past store.MaxChatLines) and nobody reads
// it. A mafia line is stored when it is posted, not when its tick sends it,
// so that a refusal reaches its sender. A room resumed after a restart
// loads its last chatKept lines, and replays them by the same rules; a
// finished game's record (Record) holds every line, of every chat, with
// where in the game it was said. With a store that keeps no chat, the
// lines are kept in memory only, as they were before, and a restart
// forgets them.

import (
	"context"
	"errors"

	"mafia/engine"
	"mafia/store"
	"mafia/wire"
)

// Chat kept: the lines kept, and the most sent again after a welcome
// (fewer when the connection's send buffer is small: they must fit in it
// with room to spare).
const (
	chatKept   = 200
	chatReplay = 32
)

// chatLine is a line of chat as it was sent: its channel and its frame,
// and the line itself (for the record when the store keeps no chat).
type chatLine struct {
	channel string
	frame   []byte
	line    store.ChatLine
}

// keepChat keeps a line's frame (unpadded), in the order the lines were
// posted (a mafia line, kept when its tick sends it, goes before the lines
// posted after it), dropping the oldest beyond chatKept.
func (r *Room) keepChat(l store.ChatLine, frame []byte) {
	r.chatLog = append(r.chatLog, chatLine{channel: l.Channel, frame: frame, line: l})
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

// chatFrame is the chat frame of a line.
func chatFrame(l store.ChatLine) []byte {
	return wire.Encode(wire.ServerMessage{Type: "chat", Channel: l.Channel, From: l.Seat, Name: l.Name,
		Text: l.Text, Now: l.At.UnixMilli()})
}

// storeChat makes a line durable with the game before anyone reads it (a
// store that keeps no chat takes nothing). Like the events (save), it
// waits on the room's life.
func (r *Room) storeChat(l store.ChatLine) error {
	if r.chats == nil {
		r.chatSeq++
		return nil
	}
	err := r.chats.AppendChat(r.life, r.id, l)
	switch {
	case err == nil:
		r.chatSeq++
		return nil
	case errors.Is(err, store.ErrChatFull):
		return &engine.Error{Code: CodeChatFull, N: store.MaxChatLines}
	}
	r.cfg.Log.Error("append chat", "err", err)
	return errCode(CodeInternal)
}

// loadChat keeps the last chatKept lines of the stored chat, for a room
// resumed after a restart: their frames are made again as they were sent
// (a mafia line's now is when it was posted, not its tick).
func (r *Room) loadChat(ctx context.Context) error {
	if r.chats == nil {
		return nil
	}
	lines, err := r.chats.Chat(ctx, r.id, chatKept)
	if err != nil {
		return err
	}
	for _, l := range lines {
		r.keepChat(l, chatFrame(l))
		r.chatSeq = l.Seq + 1
	}
	return nil
}

// replays says whether a connection of seat (0: a spectator) is sent a
// kept line of channel again, now.
func (r *Room) replays(channel string, seat engine.Seat) bool {
	g := r.game
	if g != nil && g.Ended() {
		return true
	}
	switch channel {
	case "town":
		return true
	case "dead":
		return seat != 0 && g != nil && !g.Alive().Has(seat)
	}
	return false
}

// replayChat sends sub the last kept lines it may read, oldest first.
func (r *Room) replayChat(sub *Sub) {
	n := min(chatReplay, r.cfg.SendBuffer/2)
	var lines []chatLine
	for i := len(r.chatLog) - 1; i >= 0 && len(lines) < n; i-- {
		if l := r.chatLog[i]; r.replays(l.channel, sub.Seat) {
			lines = append(lines, l)
		}
	}
	for i := len(lines) - 1; i >= 0; i-- {
		sub.out.push(Out{Frame: lines[i].frame}, r.cfg.SendBuffer)
	}
}

// dropMafiaLines forgets the mafia's lines still waiting for a tick when
// the night is over: nobody is sent them now, but they were said (and
// stored), so they are kept for the end as the store keeps them.
func (r *Room) dropMafiaLines() {
	for _, ln := range r.mafiaLines {
		r.keepChat(ln.line, chatFrame(ln.line))
	}
	r.mafiaLines = nil
}
