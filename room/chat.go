package room

// This file is the table's chat: who may post where, and who reads it.
//
//   - town: before the start and after the end every seat may post; during
//     the game only the player who holds the floor. Everyone reads it,
//     spectators too.
//   - mafia: the living mafia post and read, at night only (the dead take
//     no part in the night). Lines go out at the night's ticks (night.go),
//     so that nobody else's traffic changes when the mafia talk.
//   - dead: the dead post and read, while the game goes on.
//
// Spectators (connections without a token, and the host's before the host
// has a seat) read the town's chat and post nowhere: they are anonymous and
// free to open, so a living player's second socket must learn nothing a
// spectator may not. A seat's own extra connection is that seat.

import (
	"strings"
	"unicode/utf8"

	"mafia/engine"
	"mafia/store"
)

// MaxChat is the longest chat message, in characters.
const MaxChat = 500

// chat posts a message where the rules allow.
func (r *Room) chat(sub *Sub, channel, text string) error {
	return r.chatSaid(sub, channel, text, store.BotLine{})
}

// chatSaid posts a message where the rules allow: text, or, for a server's
// bot's line, said (text is then its sentence in the table's language, for
// the readers that render nothing), rendered for each reader in its
// language (linelang.go).
func (r *Room) chatSaid(sub *Sub, channel, text string, said store.BotLine) error {
	text = strings.TrimSpace(text)
	if text == "" || utf8.RuneCountInString(text) > MaxChat {
		return &engine.Error{Code: CodeBadRequest, Name: "text", N: MaxChat}
	}
	seat := sub.Seat
	if err := r.mayPost(channel, seat); err != nil {
		return err
	}
	l := r.newChatLine(channel, seat, text)
	l.Bot = said
	if channel == "mafia" {
		return r.queueMafiaLine(l)
	}
	if err := r.storeChat(l); err != nil {
		return err // nobody reads a line that is not durable
	}
	frames := newLineFrames(l, l.At.UnixMilli())
	r.keepChat(l)
	for s := range r.subs {
		if r.reads(channel, s.Seat) {
			r.send(s, Out{Frame: frames.in(r.langOf(s))})
		}
	}
	return nil
}

// mayPost says whether seat (0: a spectator) may post in channel now.
func (r *Room) mayPost(channel string, seat engine.Seat) error {
	g := r.game
	closed := errCode(CodeChatClosed)
	switch channel {
	case "town":
		switch {
		case seat == 0:
			return closed
		case g == nil || g.Ended():
			return nil // the lobby and the game's end talk freely
		case !g.Phase().Timed() || g.Speaker() != seat:
			return closed
		}
	case "mafia":
		if seat == 0 || g == nil || g.Phase() != engine.PhaseNight || !g.Alive().Has(seat) || !g.Role(seat).IsMafia() {
			return closed
		}
	case "dead":
		if seat == 0 || g == nil || g.Ended() || g.Alive().Has(seat) {
			return closed
		}
	default:
		return &engine.Error{Code: CodeBadRequest, Name: channel}
	}
	return nil
}

// reads says whether a connection of seat (0: a spectator) reads a line of
// channel posted now.
func (r *Room) reads(channel string, seat engine.Seat) bool {
	g := r.game
	switch channel {
	case "town":
		return true
	case "mafia":
		return seat != 0 && g != nil && !g.Ended() && g.Alive().Has(seat) && g.Role(seat).IsMafia()
	case "dead":
		return seat != 0 && g != nil && !g.Ended() && !g.Alive().Has(seat)
	}
	return false
}
