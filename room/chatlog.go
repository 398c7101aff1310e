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
// not; chat.go). The lines are kept in memory, with the room: a server
// restart forgets them.

import "mafia/engine"

// Chat kept: the lines kept, and the most sent again after a welcome
// (fewer when the connection's send buffer is small: they must fit in it
// with room to spare).
const (
	chatKept   = 200
	chatReplay = 32
)

// chatLine is a line of chat as it was sent: its channel and its frame.
type chatLine struct {
	channel string
	frame   []byte
}

// keepChat keeps a line's frame (unpadded), dropping the oldest beyond
// chatKept.
func (r *Room) keepChat(channel string, frame []byte) {
	r.chatLog = append(r.chatLog, chatLine{channel: channel, frame: frame})
	if len(r.chatLog) > chatKept {
		r.chatLog = append(r.chatLog[:0:0], r.chatLog[len(r.chatLog)-chatKept:]...)
	}
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
