package room

// This file is the chat so far, in pages a connection asks for (a
// "history" request): a new tab, a reconnect, a late spectator reads back
// every line it may read, from the table's first line.
//
// A page is a window of the table's chat, whatever the channels: the
// lines numbered [before-k, before) that have gone out (a line of the
// mafia's chat waiting for its tick has not), the newest window when the
// request names no before. Its k is the same for every reader: at most
// pageLines lines, as many as fit in pageBytes when every line of the
// window is in the page. Each connection gets the lines of the window it
// may read (rereads), and its frame is padded to the length the page
// would have with every line of the window in it, rounded up as an answer
// is (PadAnswer). A server's bot's line is rendered in each reader's
// language (linelang.go); the window and the length count each at its
// longest rendering in any language, so that neither depends on who reads. So the page's frame has one length for every seat and
// every spectator, whatever their cards: its length is that of a page no
// reader gets (a bound, not the largest reader's: which readers exist, a
// dead mafioso say, is itself hidden when cards are not revealed), and a
// client that asks for the same page at the same moment gets as many bytes
// as every other.
//
// The room keeps the last chatKept lines in memory (chatlog.go); older
// lines are read from the store, on the room's goroutine, as a chat line
// is written there.

import (
	"mafia/engine"
	"mafia/store"
	"mafia/wire"
)

// A history page holds at most pageLines lines and, with every line of its
// window in it, at most pageBytes bytes of lines (at least one line).
const (
	pageLines = 50
	pageBytes = 12 << 10
)

// history answers a history request of sub: the page before line `before`
// of the chat (0: the newest page).
func (r *Room) history(sub *Sub, id int64, before int) error {
	if before < 0 {
		return &engine.Error{Code: CodeBadRequest, Name: "before"}
	}
	end := r.chatSeq
	if before > 0 && before < end {
		end = before
	}
	window, start, err := r.chatWindow(end)
	if err != nil {
		if r.givenUp("read chat for a history page", err) {
			return r.stoppedErr()
		}
		r.cfg.Log.Error("read chat for a history page", "err", err)
		return errCode(CodeInternal)
	}
	m := wire.ServerMessage{Type: "history", ID: id, Before: start, Now: r.cfg.Clock.Now().UnixMilli()}
	if start > 0 && !r.hasChatBefore(start) {
		m.Before = 0
	}
	all := m
	outAt := r.outAt()
	lang := r.langOf(sub)
	for i := range window {
		longest, _ := r.lineBound(window[i])
		all.Lines = append(all.Lines, longest)
		if r.rereads(window[i], sub.Seat, outAt) {
			m.Lines = append(m.Lines, r.wireLineIn(window[i], lang))
		}
	}
	size := len(PadAnswer(all.AppendFrame(nil)))
	r.send(sub, Out{Frame: padTo(m.AppendFrame(make([]byte, 0, size)), size)})
	return nil
}

// chatWindow returns the page ending before line end: its lines that have
// gone out, oldest first, and the number of the window's first line.
func (r *Room) chatWindow(end int) ([]store.ChatLine, int, error) {
	waiting := map[int]bool{}
	for _, ln := range r.mafiaLines {
		waiting[ln.line.Seq] = true
	}
	// Enough lines to make a page of pageLines, the waiting skipped.
	from := max(0, end-pageLines-len(waiting))
	var lines []store.ChatLine
	kept := r.chatKeptFrom()
	if from < kept {
		stored, err := r.storedChat(from, min(end, kept))
		if err != nil {
			return nil, 0, err
		}
		for _, l := range stored {
			if l.Seq >= from && l.Seq < min(end, kept) {
				lines = append(lines, l)
			}
		}
	}
	for _, c := range r.chatLog {
		if c.line.Seq >= max(from, kept) && c.line.Seq < end {
			lines = append(lines, c.line)
		}
	}
	// The newest lines first, while they fit.
	var page []store.ChatLine
	size := 0
	start := max(from, r.chatFloor())
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		if waiting[l.Seq] {
			continue
		}
		_, n := r.lineBound(l)
		n++
		if len(page) > 0 && (len(page) == pageLines || size+n > pageBytes) {
			start = page[len(page)-1].Seq
			break
		}
		page = append(page, l)
		size += n
	}
	for i, j := 0, len(page)-1; i < j; i, j = i+1, j-1 {
		page[i], page[j] = page[j], page[i]
	}
	return page, start, nil
}

// storedChat reads the lines numbered from..to-1 from the store: that
// window alone (store.ChatPages).
func (r *Room) storedChat(from, to int) ([]store.ChatLine, error) {
	return r.chats.ChatRange(r.life, r.id, from, to)
}

// chatKeptFrom is the number of the oldest line the room keeps in memory
// (chatSeq when it keeps none): every line from it on that has gone out is
// in chatLog.
func (r *Room) chatKeptFrom() int {
	if len(r.chatLog) == 0 {
		return r.chatSeq
	}
	return r.chatLog[0].line.Seq
}

// chatFloor is the number of the oldest line a page can hold: 0, since
// the store keeps the whole chat.
func (r *Room) chatFloor() int { return 0 }

// hasChatBefore says whether there are lines before line start to page to.
func (r *Room) hasChatBefore(start int) bool { return start > r.chatFloor() }

// outAt is, for each seat, the length of the log when it left the game
// (len(log)+1 for a seat still in it).
func (r *Room) outAt() []int {
	out := make([]int, len(r.seats))
	for s := range out {
		out[s] = len(r.log) + 1
	}
	for i, e := range r.log {
		if e.Kind == engine.EvPlayerOut && int(e.Target) < len(out) && out[e.Target] > len(r.log) {
			out[e.Target] = i
		}
	}
	return out
}

// rereads says whether a connection of seat (0: a spectator) may read line
// l again now: after the end every line (a spectator of a private table
// the town's only); during the game the town's, the
// dead's to the dead, and the mafia's to each seat of the mafia that was
// in the game when the line was said (it read it then: a mafioso out of
// the game takes no part in the night).
func (r *Room) rereads(l store.ChatLine, seat engine.Seat, outAt []int) bool {
	g := r.game
	if g != nil && g.Ended() {
		// A private table's finished game is its players' (the record's
		// rule): its spectators read back the town's lines only.
		return l.Channel == "town" || seat != 0 || r.set.Public
	}
	switch l.Channel {
	case "town":
		return true
	case "dead":
		return seat != 0 && g != nil && !g.Alive().Has(seat)
	case "mafia":
		return seat != 0 && g != nil && g.Role(seat).IsMafia() && l.Log <= outAt[seat]
	}
	return false
}
