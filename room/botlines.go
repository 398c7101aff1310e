package room

// This file is the server's bots' spoken lines. A bot that is a
// bot.Speaker (the smart level) decides what it says, a bot.Line (a kind
// and a seat, from its view); the room posts it as the seat's chat line
// through the room's chat path, as a person's line is: stored with the game
// (as what it means, store.BotLine) before anyone reads it, within the
// seat's share of the chat (the server's share of a person's seat,
// chatShare), shown as chat from that seat. Each reader reads it rendered
// in its own language from the message catalogs (locale, "botline.*":
// several phrasings of each kind, the bot's Pick choosing one; see
// linelang.go). Two bot lines in a row on a channel never have the same
// words: a line of the same kind and phrasing as the previous bot line
// there has its Pick moved on (chorus).
//
// The town's chat hears the bots' lines by day and at the end; the mafia's
// chat hears its bots at night (nightTalk): a living mafia bot seat is
// asked for its lines at each of its night turns, before its command (the
// Don names its check, then the victim; after its reading time at human
// pace, never past the night's deadline; at once otherwise), and on a
// night it has no command (the first night's meeting) once, at a turn of
// its own. The bot says a few lines a night at most (bot.Speaker), and
// only night kinds (bot.LineKind.Night; any other is not posted). Its
// lines go to the mafia's readers alone, at the night's ticks as every
// mafia line does (night.go).
//
// Who speaks: a server's bot seat (never a bot standing in for a person: it
// must not put words in their mouth, standin.go), at a table where a person
// holds a seat (nobody reads a table of bots alone, and the simulator and
// the bench never ask for lines). When: on its own floor, before each of
// its commands (bot/line.go), and once after the end, for a farewell. At
// human pace its lines and statements on a floor go out one by one, after
// its reading time (pace.go), never past the floor's deadline.

import (
	"time"

	"mafia/bot"
	"mafia/engine"
	"mafia/locale"
)

// DefaultLang is the language of a table made without one (and of every
// table stored before tables had one): the server's default, the one its
// errors are written in for a request that names no language
// (negotiate.Lang), English.
const DefaultLang = locale.En

// The seat's share of the chat a bot's lines take from, as the server gives
// a person's seat by default (server.Limits.SeatChatRate, SeatChatBurst):
// lines per second, and at once.
const (
	botLineRate  = 3
	botLineBurst = 6
)

// chatShare is a seat's share of the chat: a bucket of lines that fills at
// botLineRate, up to botLineBurst.
type chatShare struct {
	tokens float64
	at     time.Time
}

// take takes one line from the share at now; false when it is spent.
func (c *chatShare) take(now time.Time) bool {
	if c.at.IsZero() {
		c.tokens = botLineBurst
	} else if d := now.Sub(c.at); d > 0 {
		c.tokens = min(botLineBurst, c.tokens+d.Seconds()*botLineRate)
	}
	c.at = now
	if c.tokens < 1 {
		return false
	}
	c.tokens--
	return true
}

// lang is the table's language: Settings.Lang, else DefaultLang.
func (s *Settings) lang() locale.Lang {
	if l, ok := locale.Parse(s.Lang); ok && s.Lang != "" {
		return l
	}
	return DefaultLang
}

// speaker is seat s's bot as a Speaker, if it may speak now (see above).
func (r *Room) speaker(s engine.Seat) (bot.Speaker, bool) {
	if int(s) >= len(r.bots) || !r.seats[s].bot || r.seats[s].standIn || !r.anyoneSeated() {
		return nil, false
	}
	sp, ok := r.bots[s].(bot.Speaker)
	return sp, ok
}

// botSays lets seat s's bot say its next line now, if it has one, and
// reports whether it did (a line the seat's share of the chat or the store
// refused counts as said: the bot has moved on).
func (r *Room) botSays(s engine.Seat) bool {
	sp, ok := r.speaker(s)
	if !ok {
		return false
	}
	r.game.ViewInto(&r.view, s)
	l, ok := sp.Speak(&r.view)
	if !ok {
		return false
	}
	r.postLine(s, "town", l)
	return true
}

// nightTalker reports whether seat s's bot is owed a turn only to talk in
// the mafia's chat: a living mafia seat at night, a bot that speaks
// (speaker), not asked yet this night (one that acts has its turns anyway).
func (r *Room) nightTalker(s engine.Seat) bool {
	g := r.game
	if g == nil || g.Phase() != engine.PhaseNight || r.nightTalked.Has(s) || !g.Alive().Has(s) || !g.Role(s).IsMafia() {
		return false
	}
	_, ok := r.speaker(s)
	return ok
}

// nightTalk asks seat s's bot, if it is a living mafia seat's that speaks,
// for its lines now (a few at most, bot.MaxLines) and posts its night
// kinds in the mafia's chat.
func (r *Room) nightTalk(s engine.Seat) {
	g := r.game
	if !g.Alive().Has(s) || !g.Role(s).IsMafia() {
		return
	}
	sp, ok := r.speaker(s)
	if !ok {
		return
	}
	r.nightTalked = r.nightTalked.With(s)
	for range bot.MaxLines {
		g.ViewInto(&r.view, s)
		l, ok := sp.Speak(&r.view)
		if !ok {
			return
		}
		if !l.Kind.Night() {
			r.cfg.Log.Debug("a bot's day line at night not posted", "seat", int(s), "kind", l.Kind.String())
			continue
		}
		r.postLine(s, "mafia", l)
	}
}

// postLine posts line l of seat s's bot as its chat line in channel.
func (r *Room) postLine(s engine.Seat, channel string, l bot.Line) {
	if r.lineShare == nil {
		r.lineShare = make([]chatShare, len(r.seats))
	}
	if !r.lineShare[s].take(r.cfg.Clock.Now()) {
		r.cfg.Log.Debug("a bot's line over its share of the chat", "seat", int(s))
		return
	}
	l = r.unchorus(channel, l)
	// the chat path of a seat's own connection: who may post, the store,
	// the readers
	if err := r.chatSaid(&Sub{Seat: s, room: r}, channel, RenderLine(r.set.lang(), l), saidOf(l)); err != nil {
		r.cfg.Log.Debug("a bot's line not posted", "seat", int(s), "err", err)
		return
	}
	if r.lastLine == nil {
		r.lastLine = map[string]bot.Line{}
	}
	r.lastLine[channel] = l
}

// farewellWait is how long after the end a bot's farewell comes at human
// pace.
var farewellWait = waitRange{2 * time.Second, 8 * time.Second}

// botsFarewell asks every bot that speaks for its line after the end: said
// at once, or at human pace after a person's while.
func (r *Room) botsFarewell() {
	for s := 1; s < len(r.seats); s++ {
		seat := engine.Seat(s)
		sp, ok := r.speaker(seat)
		if !ok {
			continue
		}
		r.game.ViewInto(&r.view, seat)
		l, ok := sp.Speak(&r.view)
		if !ok {
			continue
		}
		if !r.humanPace() {
			r.postLine(seat, "town", l)
			continue
		}
		r.timers = append(r.timers, r.later(drawWait(&r.paceSrc, farewellWait.lo, farewellWait.hi), func() {
			if r.game != nil && r.game.Ended() {
				r.postLine(seat, "town", l)
			}
		}))
	}
}
