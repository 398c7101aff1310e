package room

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"strings"
	"time"
	"unicode/utf8"

	"mafia/engine"
	"mafia/store"
	"mafia/wire"
)

// MaxChat is the longest chat message, in characters.
const MaxChat = 500

// MaxName is the longest display name, in characters.
const MaxName = 32

// Attach connects a client: token is a seat's token, the host's token, or
// empty for a spectator; since is how many events the client already has
// (from a previous connection). The returned Sub's queue (Next, Take) first
// carries the welcome frame.
func (r *Room) Attach(ctx context.Context, token string, since int) (*Sub, error) {
	return r.AttachNotify(ctx, token, since, nil)
}

// AttachNotify is Attach for a connection that writes only when told:
// notify is called, on the room's goroutine, after each item is queued for
// the Sub (the welcome first) and after its queue is closed. It must not
// block; it may run before AttachNotify returns.
func (r *Room) AttachNotify(ctx context.Context, token string, since int, notify func()) (*Sub, error) {
	var sub *Sub
	var err error
	derr := r.do(ctx, func() {
		sub = &Sub{room: r, notify: notify}
		if token != "" {
			h := HashToken(token)
			switch {
			case h == r.table.HostToken:
				sub.Host, sub.Seat = true, r.hostSeat
			default:
				s := r.seatByHash(h)
				if s == 0 {
					err = errCode(CodeBadToken)
					return
				}
				sub.Seat, sub.Host = s, s == r.hostSeat
			}
		}
		if sub.Seat != 0 {
			r.seats[sub.Seat].conns++
			r.publishLobby()
		}
		sub.out.push(Out{Frame: r.welcome(sub, since)}, r.cfg.SendBuffer)
		if notify != nil {
			notify()
		}
		r.subs[sub] = struct{}{}
		if sub.Seat != 0 {
			r.broadcastLobby()
		}
	})
	if derr != nil {
		return nil, derr
	}
	return sub, err
}

func (r *Room) seatByHash(h string) engine.Seat {
	for s := 1; s < len(r.seats); s++ {
		if r.seats[s].tokenHash == h {
			return engine.Seat(s)
		}
	}
	return 0
}

// Detach disconnects a client; its seat keeps its place.
func (r *Room) Detach(sub *Sub) {
	_ = r.post(func() {
		if sub.dead {
			return
		}
		r.drop(sub)
		if sub.Seat != 0 {
			r.broadcastLobby()
		}
		r.maybeLinger()
	})
}

// Submit queues a client's message; the answer is queued for sub as a
// Reply. It fails at once with CodeBusy when the room's inbox is full.
func (r *Room) Submit(sub *Sub, m wire.ClientMessage, received time.Time) error {
	return r.post(func() {
		if sub.dead {
			return
		}
		err := r.handle(sub, m)
		if m.Type != "ping" || err != nil {
			r.send(sub, Out{Reply: &Reply{ID: m.ID, Err: err}})
		}
		if r.cfg.Metrics.Command != nil && m.Type == "command" {
			r.cfg.Metrics.Command(r.cfg.Clock.Now().Sub(received), err == nil)
		}
	})
}

func (r *Room) handle(sub *Sub, m wire.ClientMessage) error {
	switch m.Type {
	case "ping":
		r.send(sub, Out{Frame: wire.Encode(wire.ServerMessage{Type: "pong", ID: m.ID, Now: r.cfg.Clock.Now().UnixMilli()})})
		return nil
	case "command":
		if sub.Seat == 0 {
			return errCode(CodeSpectator)
		}
		if r.game == nil {
			return errCode(CodeNotStarted)
		}
		if r.paused {
			return errCode(CodePaused)
		}
		cmd, ok := m.Command(sub.Seat)
		if !ok {
			switch v, known := engine.ParseVerb(m.Verb); {
			case v == engine.Next || v == engine.Foul:
				return &engine.Error{Code: engine.CodeHostOnly}
			case known:
				return &engine.Error{Code: CodeBadRequest, Name: "target"}
			}
			return &engine.Error{Code: engine.CodeUnknownVerb, Name: m.Verb}
		}
		if err := r.apply(cmd); err != nil {
			return err
		}
		r.settle()
		return nil
	case "chat":
		return r.chat(sub, m.Channel, m.Text)
	case "host":
		if !sub.Host {
			return errCode(CodeNotHost)
		}
		return r.hostAction(m.Action, m.Target)
	}
	return errCode(CodeBadRequest)
}

func (r *Room) hostAction(action string, target int) error {
	switch action {
	case "start":
		return r.start()
	case "add_bots":
		if r.game != nil {
			return errCode(CodeAlreadyStarted)
		}
		for s := 1; s < len(r.seats); s++ {
			if !r.seats[s].bot && r.seats[s].tokenHash == "" {
				r.seats[s] = seatState{name: botName(s), bot: true}
			}
		}
		r.saveSeats()
		r.broadcastLobby()
		return nil
	case "kick":
		if r.game != nil {
			return errCode(CodeAlreadyStarted)
		}
		if target < 1 || target >= len(r.seats) {
			return &engine.Error{Code: engine.CodeNoSuchSeat, Seat: engine.Seat(target), N: len(r.seats) - 1}
		}
		for sub := range r.subs {
			if sub.Seat == engine.Seat(target) {
				r.drop(sub)
			}
		}
		if engine.Seat(target) == r.hostSeat {
			r.hostSeat = 0
		}
		r.seats[target] = seatState{}
		r.saveSeats()
		r.broadcastLobby()
		return nil
	case "pause":
		if r.game == nil || r.game.Ended() {
			return errCode(CodeNotStarted)
		}
		if r.paused {
			return nil
		}
		r.left = max(r.deadline.Sub(r.cfg.Clock.Now()), 0)
		r.paused = true
		r.stopTimers()
		r.botQueued = 0 // their turns were timers: resume schedules them again
		r.saveClock()
		r.broadcastLobby()
		return nil
	case "resume":
		if r.game == nil || r.game.Ended() {
			return errCode(CodeNotStarted)
		}
		if !r.paused {
			return nil
		}
		r.paused = false
		r.schedule(r.left)
		r.saveClock()
		r.broadcastLobby()
		r.settle()
		return nil
	case "foul":
		if r.game == nil {
			return errCode(CodeNotStarted)
		}
		if err := r.apply(engine.Command{Verb: engine.Foul, Target: engine.Seat(target)}); err != nil {
			return err
		}
		r.settle()
		return nil
	}
	return &engine.Error{Code: CodeBadRequest, Name: action}
}

func botName(s int) string { return "Bot " + itoa(s) }

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for ; n > 0; n /= 10 {
		i--
		b[i] = byte('0' + n%10)
	}
	return string(b[i:])
}

func (r *Room) saveSeats() {
	ctx, cancel := r.ctx()
	defer cancel()
	if err := r.cfg.Store.SaveSeats(ctx, r.id, r.storeSeats()); err != nil {
		r.cfg.Log.Error("save seats", "err", err)
	}
}

// start deals and begins the game once every seat is taken.
func (r *Room) start() error {
	if r.game != nil {
		return errCode(CodeAlreadyStarted)
	}
	for s := 1; s < len(r.seats); s++ {
		if !r.seats[s].bot && r.seats[s].tokenHash == "" {
			return &engine.Error{Code: CodeNotFull, Seat: engine.Seat(s)}
		}
	}
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return errCode(CodeInternal)
	}
	seed := binary.LittleEndian.Uint64(b[:])
	roles := r.set.Setup.Deal(seed, nil)
	g, evs, err := engine.New(r.rules, roles, seed)
	if err != nil {
		return err
	}
	batch := append([]engine.Event(nil), evs...)
	r.setGame(g, nil)
	clk, newStep, err := r.save(0, batch)
	if err != nil {
		r.game = nil
		return err
	}
	r.log = batch
	r.table.Seed = seed
	r.table.Status = store.StatusPlaying
	r.saveTable()
	r.initBots()
	if r.cfg.Metrics.GameStarted != nil {
		r.cfg.Metrics.GameStarted()
	}
	r.afterEvents(0, clk, newStep)
	r.broadcastLobby()
	r.settle()
	return nil
}

// Join seats a player by display name: in seat (0: the first free one). A
// caller holding the host's token (hostToken) becomes the host's seat. It
// returns the seat and its secret token.
func (r *Room) Join(ctx context.Context, name string, seat int, hostToken string) (int, string, error) {
	name = strings.TrimSpace(name)
	if name == "" || utf8.RuneCountInString(name) > MaxName {
		return 0, "", errCode(CodeNameRequired)
	}
	var got int
	var tok string
	var err error
	derr := r.do(ctx, func() {
		if r.game != nil {
			err = errCode(CodeAlreadyStarted)
			return
		}
		if seat == 0 {
			for s := 1; s < len(r.seats); s++ {
				if !r.seats[s].bot && r.seats[s].tokenHash == "" {
					seat = s
					break
				}
			}
			if seat == 0 {
				err = errCode(CodeTableFull)
				return
			}
		}
		if seat < 1 || seat >= len(r.seats) {
			err = &engine.Error{Code: engine.CodeNoSuchSeat, Seat: engine.Seat(min(seat, 255)), N: len(r.seats) - 1}
			return
		}
		if r.seats[seat].bot || r.seats[seat].tokenHash != "" {
			err = &engine.Error{Code: CodeSeatTaken, Seat: engine.Seat(seat)}
			return
		}
		tok = NewToken()
		if hostToken != "" && HashToken(hostToken) == r.table.HostToken && r.hostSeat == 0 {
			// The host's seat is reached with the host's own token.
			tok = hostToken
			r.hostSeat = engine.Seat(seat)
		}
		r.seats[seat] = seatState{name: name, tokenHash: HashToken(tok)}
		got = seat
		r.saveSeats()
		r.broadcastLobby()
	})
	if derr != nil {
		return 0, "", derr
	}
	return got, tok, err
}

// Leave frees a seat before the game starts.
func (r *Room) Leave(ctx context.Context, token string) error {
	var err error
	derr := r.do(ctx, func() {
		if r.game != nil {
			err = errCode(CodeAlreadyStarted)
			return
		}
		s := r.seatByHash(HashToken(token))
		if s == 0 {
			err = errCode(CodeBadToken)
			return
		}
		for sub := range r.subs {
			if sub.Seat == s {
				r.drop(sub)
			}
		}
		if s == r.hostSeat {
			r.hostSeat = 0
		}
		r.seats[s] = seatState{}
		r.saveSeats()
		r.broadcastLobby()
	})
	if derr != nil {
		return derr
	}
	return err
}

// chat posts a message where the rules allow: the town's chat only for the
// player who holds the floor; the mafia's at night for the living mafia; the
// dead's for the dead and spectators.
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
		// Only the living mafia: the dead do not take part in the night.
		to = func(s *Sub) bool { return s.Seat != 0 && g.Role(s.Seat).IsMafia() && g.Alive().Has(s.Seat) }
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
