package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"mafia/bench/internal/peek"
	"mafia/client"
	"mafia/engine"
	"mafia/rng"
	"mafia/wire"
)

// maxFrames bounds the frames one seat reads in one game.
const maxFrames = 1 << 22

// frameKind is a server frame's type, read without decoding the frame.
type frameKind int

const (
	kindOther frameKind = iota
	kindReply
	kindError
	kindUpdate
	kindPad // what every seat gets when a broadcast has nothing for it
)

var framePrefix = []byte(`{"v":1,"type":"`)

// peekKind reads a frame's type from its first bytes (package wire always
// writes "v" then "type"), decoding it only if it looks otherwise.
func peekKind(data []byte) frameKind {
	typ := ""
	if rest, ok := bytes.CutPrefix(data, framePrefix); ok {
		if i := bytes.IndexByte(rest, '"'); i >= 0 {
			switch string(rest[:i]) {
			case "reply":
				return kindReply
			case "error":
				return kindError
			case "update", "welcome":
				return kindUpdate
			case "pad":
				return kindPad
			}
			return kindOther
		}
	}
	var m struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(data, &m) == nil {
		typ = m.Type
	}
	switch typ {
	case "reply":
		return kindReply
	case "error":
		return kindError
	case "update", "welcome":
		return kindUpdate
	case "pad":
		return kindPad
	}
	return kindOther
}

var (
	viewMark  = []byte(`"view":{`)
	endedMark = []byte(`"phase":"ended"`)
	// idleMark is a view's empty list of legal moves: nothing to do.
	idleMark = []byte(`"legal":{}`)
)

// expectedRefusals are the refusals a seat may meet through no fault of
// its own: its view was stale because the step ended (by the clock or
// another player) while its command was on the way.
var expectedRefusals = map[string]bool{}

func init() {
	for _, c := range []engine.Code{
		engine.CodeGameOver, engine.CodeActorOut, engine.CodeTargetOut, engine.CodeWrongPhase,
		engine.CodeNotYourRole, engine.CodeMeetingNight, engine.CodeAlreadyActed, engine.CodeTargetIsMafia,
		engine.CodeCheckSelf, engine.CodeShootSelf, engine.CodeManiacNightOne, engine.CodeNoShotsLeft,
		engine.CodeAlreadyHealed, engine.CodeHealedLastNight, engine.CodeNotSpeaker,
		engine.CodeAlreadyNominated, engine.CodeNominateSelf, engine.CodeAlreadyCandidate,
		engine.CodeNotCandidate, engine.CodeAlreadyVoted,
	} {
		expectedRefusals[string(c)] = true
	}
	// The same, said by the room: the move names the step it was chosen in.
	expectedRefusals["stale_step"] = true
}

// seat is one bot player on one WebSocket for one game. Its reader
// goroutine (play) reads every frame; its moves are sent after a think
// pause from a timer, one request at a time. With failover, the reader
// takes the seat back on another connection when its own breaks.
type seat struct {
	r     *run
	ctx   context.Context
	table string // the table's id
	token string // the seat's token, for a reconnect

	// log is what the seat was told, by event number (the reader's alone;
	// kept when the run tracks events: run.track).
	log        seatLog
	reconnects int // the reader's alone

	mu  sync.Mutex
	sv  *serverRun // the server the seat plays through
	srv int        // sv's index in run.srvs
	c   *client.Conn
	// reconnecting is set from a break until the seat is back (or has
	// given up); ready is closed then. detached says c is not counted in
	// run.connected (it broke, and no other took its place).
	reconnecting bool
	ready        chan struct{}
	detached     bool
	src          rng.Source
	last         []byte     // the latest frame that carried a view
	view         *wire.View // last, decoded (nil until needed)
	fresh        bool       // a view arrived since the last move was chosen
	waiting      int64      // the id of the request in flight, 0 when none
	ctl          chan error // answers a host action (nil: the request is a move)
	sentAt       time.Time
	sentHeld     bool // the move in flight was sent at night or in a vote
	scheduled    bool
	timer        *time.Timer
	ended        bool
	nextID       int64
}

func newSeat(ctx context.Context, r *run, srv int, c *client.Conn, seed uint64, table, token string) *seat {
	s := &seat{r: r, srv: srv, sv: r.srvs[srv], c: c, ctx: ctx, src: rng.New(seed), table: table, token: token}
	if c.View != nil {
		s.view, s.fresh = c.View, true
	}
	if r.track {
		s.log.told(c.Seq, kindsOf(c.Events), true)
	}
	return s
}

// kindsOf is the kinds of events.
func kindsOf(evs []wire.Event) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Kind
	}
	return out
}

// conn is the seat's connection now.
func (s *seat) conn() *client.Conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.c
}

// release closes the seat's connection and takes it from the count of
// connections, unless a break already did.
func (s *seat) release() {
	s.mu.Lock()
	c, counted := s.c, !s.detached
	s.detached = true
	s.mu.Unlock()
	c.CloseNow()
	if counted {
		s.r.connect(-1)
	}
}

// server is the server the seat plays through now.
func (s *seat) server() *serverRun {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sv
}

// play reads frames until the game ends (nil), the context ends (its
// error), or the connection fails.
func (s *seat) play() error {
	defer s.stop()
	s.mu.Lock()
	now := s.maybeSchedule()
	s.mu.Unlock()
	if now {
		s.act()
	}
	// Reads wait without a context (a watch per read would cost more than
	// the read): the connection is closed when the seat's context ends.
	defer context.AfterFunc(s.ctx, func() { s.conn().CloseNow() })()
	var buf []byte
	for i := 0; i < maxFrames; i++ {
		c := s.conn() // only this goroutine changes it
		data, err := c.ReadInto(context.Background(), buf)
		buf = data
		if err != nil {
			if s.ctx.Err() != nil {
				return s.ctx.Err()
			}
			cause, again := breakCause(err)
			if s.r.cfg.Failover <= 0 || !again {
				return err
			}
			ended, err := s.reconnect(time.Now(), cause)
			if err != nil || ended {
				return err
			}
			s.mu.Lock()
			now := s.maybeSchedule()
			s.mu.Unlock()
			if now {
				s.act()
			}
			continue
		}
		kind := peekKind(data)
		if kind == kindPad {
			s.r.pad() // nothing for this seat: not a frame it reads
			continue
		}
		s.r.frame(s.sv) // s.sv changes only on this goroutine
		ended, now := s.absorb(kind, data)
		if ended {
			return nil
		}
		if now {
			s.act()
		}
	}
	return errors.New("too many frames")
}

func (s *seat) stop() {
	s.mu.Lock()
	s.ended = true
	if s.timer != nil {
		s.timer.Stop()
	}
	ctl := s.ctl
	s.ctl = nil
	s.mu.Unlock()
	if ctl != nil {
		ctl <- errors.New("connection ended")
	}
}

// absorb takes one frame of a kind; it reports whether the game has ended
// and whether a move is due at once.
func (s *seat) absorb(kind frameKind, data []byte) (ended, now bool) {
	switch kind {
	case kindReply, kindError:
		var m struct {
			Type string `json:"type"`
			ID   int64  `json:"id"`
			Code string `json:"code"`
		}
		var ok bool
		if m.Type, m.ID, m.Code, ok = peek.Reply(data); !ok {
			if err := json.Unmarshal(data, &m); err != nil {
				s.r.fail(s.sv, "bad_frame")
				return false, false
			}
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if m.ID == 0 || m.ID != s.waiting {
			// Unasked: a frame the server refused outright, or, with
			// failover, the word before a close to reconnect after.
			if m.Type == "error" && (s.r.cfg.Failover <= 0 || m.ID != 0 || !againCodes[m.Code]) {
				s.r.fail(s.sv, "error:"+m.Code)
			}
			return false, s.maybeSchedule()
		}
		s.waiting = 0
		if s.ctl != nil {
			var err error
			if m.Type == "error" {
				err = &client.Error{Code: m.Code}
			}
			s.ctl <- err
			s.ctl = nil
		} else {
			s.r.command(s.sv, time.Since(s.sentAt), s.sentHeld)
			if m.Type == "error" {
				if s.r.cfg.Failover > 0 && againCodes[m.Code] {
					// The room stopped with the command on its way (a
					// node's shutdown, a handover): nothing was done, and
					// the close that follows has the seat reconnect and
					// decide again. A cause, not an error.
					s.r.countRefusal(m.Code)
				} else {
					s.r.refused(s.sv, m.Code)
				}
			}
		}
		return false, s.maybeSchedule()
	case kindUpdate:
		if !bytes.Contains(data, viewMark) {
			return false, false
		}
		s.r.stamped(data)
		if s.r.track { // a game's frame: its events are numbered
			if seq, kinds, ok := peek.Events(data); ok {
				s.r.lost.Add(int64(s.log.told(seq, kinds, false)))
			} else {
				s.r.fail(s.sv, "bad_frame")
			}
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		// A view with no legal move needs no decoding: the seat waits.
		// data is the reader's buffer, reused for the next frame: keep a copy.
		s.last, s.view, s.fresh = append(s.last[:0], data...), nil, !bytes.Contains(data, idleMark)
		if bytes.Contains(data, endedMark) {
			if v := s.decode(); v != nil && v.Phase == "ended" {
				s.ended = true
				return true, false
			}
		}
		return false, s.maybeSchedule()
	}
	return false, false
}

// decode returns the latest view, decoding it once (s.mu held). Only what
// a move is chosen from is kept: the phase, the step (which the move names)
// and the legal moves.
func (s *seat) decode() *wire.View {
	if s.view == nil && s.last != nil {
		if v, ok := peek.View(s.last); ok {
			s.view = &v
			return s.view
		}
		var m struct {
			View *struct {
				Phase string     `json:"phase"`
				Step  int        `json:"step"`
				Legal wire.Legal `json:"legal"`
			} `json:"view"`
		}
		if err := json.Unmarshal(s.last, &m); err != nil || m.View == nil {
			s.r.fail(s.sv, "bad_frame")
			s.last = nil
			return nil
		}
		s.view = &wire.View{Phase: m.View.Phase, Step: m.View.Step, Legal: m.View.Legal}
	}
	return s.view
}

// maybeSchedule arranges the next move after a think pause if the seat may
// move now (s.mu held); it reports true when the pause is zero and the
// caller must call act itself once it has released s.mu.
func (s *seat) maybeSchedule() bool {
	if s.ended || s.waiting != 0 || s.scheduled || !s.fresh || s.reconnecting {
		return false
	}
	d := s.r.think(&s.src)
	if d <= 0 {
		return true
	}
	s.scheduled = true
	s.timer = time.AfterFunc(d, s.act)
	return false
}

// act sends a random legal move from the latest view, or "pass" when the
// seat holds the floor and has nothing else to do.
func (s *seat) act() {
	s.mu.Lock()
	s.scheduled = false
	if s.ended || s.waiting != 0 || !s.fresh || s.reconnecting || s.ctx.Err() != nil {
		s.mu.Unlock()
		return
	}
	s.fresh = false
	v := s.decode()
	if v == nil || v.Phase == "ended" {
		s.mu.Unlock()
		return
	}
	m, ok := client.RandomMove(v, &s.src)
	if !ok && v.Legal.Pass {
		m, ok = wire.ClientMessage{Type: "command", Verb: "pass", Step: v.Step}, true
	}
	if !ok {
		s.mu.Unlock()
		return
	}
	s.nextID++
	m.ID = s.nextID
	s.waiting = m.ID
	s.sentAt, s.sentHeld = time.Now(), heldPhase(v.Phase)
	c, sv := s.c, s.sv
	s.mu.Unlock()
	// Sent without a context to watch (a watch per write costs more than
	// the write): the connection is closed when the seat's context ends.
	// With failover, a send that fails is the break the reader meets too:
	// the move is chosen again once the seat is back.
	if _, err := c.Send(context.Background(), m); err != nil && s.ctx.Err() == nil && s.r.cfg.Failover <= 0 {
		s.r.fail(sv, "send")
	}
}

// control sends a host action and waits for its answer. With failover,
// an action whose connection broke on its way is sent again once the seat
// is back, unless the seat's view shows it was done (a game to start that
// has begun); already_started answers a repeat of an action that was.
func (s *seat) control(m wire.ClientMessage) error {
	for try := 0; ; try++ {
		err := s.controlOnce(m)
		if try > 0 && codeOf(err) == "already_started" {
			return nil
		}
		if !errors.Is(err, errReconnected) || try >= 8 {
			return err
		}
		s.mu.Lock()
		ready, started := s.ready, s.view != nil || s.last != nil
		s.mu.Unlock()
		if ready != nil {
			select {
			case <-ready:
			case <-s.ctx.Done():
				return s.ctx.Err()
			}
			s.mu.Lock()
			started = s.view != nil || s.last != nil
			s.mu.Unlock()
		}
		if started && m.Action == "start" {
			return nil
		}
	}
}

// codeOf is an error's protocol code ("" for none).
func codeOf(err error) string {
	var ce *client.Error
	if errors.As(err, &ce) {
		return ce.Code
	}
	return ""
}

// controlOnce sends a host action once and waits for its answer.
func (s *seat) controlOnce(m wire.ClientMessage) error {
	ch := make(chan error, 1)
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		return errors.New("connection ended")
	}
	if s.reconnecting {
		s.mu.Unlock()
		return errReconnected
	}
	if s.timer != nil {
		s.timer.Stop()
		s.scheduled = false
	}
	s.nextID++
	m.ID = s.nextID
	s.waiting, s.ctl, s.sentAt = m.ID, ch, time.Now()
	c := s.c
	s.mu.Unlock()
	if _, err := c.Send(s.ctx, m); err != nil && s.r.cfg.Failover <= 0 {
		return err
	} // with failover, the break answers ch
	select {
	case err := <-ch:
		return err
	case <-s.ctx.Done():
		return s.ctx.Err()
	}
}

// reconnect takes the seat back after its connection broke (at brk, for a
// cause): on the next server of the run in turn, the one it was on last
// after the others, with its token and since = the last event number it
// saw, within the failover wait. A request in flight is forgotten (a move
// is chosen again from the view the seat gets back; a host action is sent
// again). It reports whether the game had ended meanwhile; its error is
// errFailover when no server took the seat back in time.
func (s *seat) reconnect(brk time.Time, cause string) (ended bool, err error) {
	s.mu.Lock()
	s.reconnecting, s.ready = true, make(chan struct{})
	s.waiting, s.scheduled = 0, false
	if s.timer != nil {
		s.timer.Stop()
	}
	ctl, old, from := s.ctl, s.c, s.srv
	s.ctl, s.detached = nil, true
	s.mu.Unlock()
	if ctl != nil {
		ctl <- errReconnected
	}
	old.CloseNow()
	s.r.connect(-1)

	var c *client.Conn
	since := s.log.seq()
	i, err := s.r.onServers(s.ctx, brk.Add(s.r.cfg.Failover), from+1, func(ctx context.Context, sv *serverRun) error {
		var err error
		c, err = sv.api.Dial(ctx, s.table, s.token, since)
		return err
	})
	s.mu.Lock()
	defer s.mu.Unlock()
	defer close(s.ready)
	s.reconnecting = false
	if err != nil {
		s.ended = true
		if s.ctx.Err() != nil {
			return false, s.ctx.Err()
		}
		return false, errFailover
	}
	s.r.connect(1)
	s.r.reconnected(s.r.srvs[i], time.Since(brk), cause)
	s.reconnects++
	s.c, s.sv, s.srv, s.detached = c, s.r.srvs[i], i, false
	if s.ctx.Err() != nil {
		c.CloseNow() // the run ended meanwhile: the next read says so
	}
	s.r.frame(s.sv) // the welcome
	if s.r.track {
		s.r.lost.Add(int64(s.log.told(c.Seq, kindsOf(c.Events), true)))
	}
	s.last, s.view, s.fresh = nil, c.View, c.View != nil
	if c.View != nil && c.View.Phase == "ended" {
		s.ended = true
		return true, nil
	}
	return false, nil
}

// heldPhase reports whether a move made in phase p gets its view later
// than its reply: at night (at the next night tick) and in a vote (when the
// vote closes). Such a move is measured to its reply.
func heldPhase(p string) bool {
	switch p {
	case "night", "vote", "revote", "all_vote":
		return true
	}
	return false
}
