package room

// This file is the table's chat: who may post where, and who reads it.

import (
	"strings"
	"unicode/utf8"

	"mafia/engine"
	"mafia/wire"
)

// MaxChat is the longest chat message, in characters.
const MaxChat = 500

// chat posts a message where the rules allow: the town's chat only for the
// player who holds the floor; the mafia's at night for the living mafia, at
// the night's ticks; the dead's for the dead and spectators.
func (r *Room) chat(sub *Sub, channel, text string) error {
	text = strings.TrimSpace(text)
	if text == "" || utf8.RuneCountInString(text) > MaxChat {
		return &engine.Error{Code: CodeBadRequest, Name: "text", N: MaxChat}
	}
	g := r.game
	seat := sub.Seat
	var to func(*Sub) bool
	switch channel {
	case "town":
		if g == nil {
			to = func(*Sub) bool { return true } // the lobby talks freely
			break
		}
		// During the game only the player who holds the floor talks; once
		// it is over, every seat may.
		if seat == 0 || (!g.Ended() && (!g.Phase().Timed() || g.Speaker() != seat)) {
			return errCode(CodeChatClosed)
		}
		to = func(*Sub) bool { return true }
	case "mafia":
		if g == nil || seat == 0 || g.Phase() != engine.PhaseNight || !g.Alive().Has(seat) || !g.Role(seat).IsMafia() {
			return errCode(CodeChatClosed)
		}
		// Only the living mafia (the dead do not take part in the night),
		// at the night's next tick (night.go).
		return r.queueMafiaLine(seat, text)
	case "dead":
		if g == nil || (seat != 0 && g.Alive().Has(seat) && !g.Ended()) {
			return errCode(CodeChatClosed)
		}
		to = func(s *Sub) bool { return s.Seat == 0 || !g.Alive().Has(s.Seat) || g.Ended() }
	default:
		return &engine.Error{Code: CodeBadRequest, Name: channel}
	}
	name := ""
	if seat != 0 {
		name = r.seats[seat].name
	}
	frame := wire.Encode(wire.ServerMessage{Type: "chat", Channel: channel, From: int(seat), Name: name, Text: text,
		Now: r.cfg.Clock.Now().UnixMilli()})
	for s := range r.subs {
		if to(s) {
			r.send(s, Out{Frame: frame})
		}
	}
	return nil
}

// reads says whether a connection of seat reads a line of the mafia's
// chat sent now.
func (r *Room) reads(channel string, seat engine.Seat) bool {
	g := r.game
	return channel == "mafia" && seat != 0 && g != nil && !g.Ended() && g.Alive().Has(seat) && g.Role(seat).IsMafia()
}
