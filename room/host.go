package room

// This file holds the host's powers: start, bots, kick (and unblock),
// pause, resume, fouls.

import (
	"mafia/engine"
	"mafia/internal/secret"
)

func (r *Room) hostAction(action string, target int) error {
	switch action {
	case "start":
		return r.start()
	case "add_bots":
		if r.game != nil {
			return errCode(CodeAlreadyStarted)
		}
		if r.set.Rated {
			return errCode(CodeRatedTable) // bot accounts sit there; the server's bots have no rating
		}
		prev := append([]seatState(nil), r.seats...)
		for s := 1; s < len(r.seats); s++ {
			if !r.seats[s].bot && r.seats[s].tokenHash == "" {
				r.seats[s] = seatState{name: botName(s), bot: true}
			}
		}
		if err := r.saveSeats(); err != nil {
			copy(r.seats, prev)
			return err
		}
		r.broadcastLobby()
		return nil
	case "kick":
		if r.game != nil {
			return errCode(CodeAlreadyStarted)
		}
		if target < 1 || target >= len(r.seats) {
			return noSuchSeat(target, len(r.seats)-1)
		}
		// Saved first: a seat the store still holds is not taken away.
		prev := r.seats[target]
		r.seats[target] = seatState{}
		err := r.saveSeats()
		r.seats[target] = prev
		if err != nil {
			return err
		}
		for sub := range r.subs {
			if sub.Seat == engine.Seat(target) {
				r.drop(sub, CodeKicked)
			}
		}
		if engine.Seat(target) == r.hostSeat {
			r.hostSeat = 0
		} else {
			// Whoever was kicked may not come straight back.
			r.block(r.seats[target])
		}
		r.seats[target] = seatState{}
		r.broadcastLobby()
		return nil
	case "unblock":
		// Those the host kicked may sit here again.
		if r.game != nil {
			return errCode(CodeAlreadyStarted)
		}
		r.blocked = nil
		return nil
	case "pause":
		if r.game == nil || r.game.Ended() {
			return errCode(CodeNotStarted)
		}
		if r.hostPaused {
			return nil
		}
		wasPaused := r.paused // (frozen already: the clock is stopped)
		r.hostPaused = true
		if !wasPaused {
			r.left = max(r.deadline.Sub(r.cfg.Clock.Now()), 0)
			r.paused = true
		}
		if err := r.saveClock(); err != nil {
			// Not paused: a restart would run the clock the host stopped.
			r.hostPaused, r.paused = false, wasPaused
			return err
		}
		if !wasPaused {
			r.stopTimers()
			r.botQueued = 0 // their turns were timers: resume schedules them again
		}
		r.broadcastLobby()
		return nil
	case "resume":
		if r.game == nil || r.game.Ended() {
			return errCode(CodeNotStarted)
		}
		if !r.hostPaused {
			return nil
		}
		r.hostPaused = false
		run := !r.frozen // (the host is connected: it is not frozen)
		deadline := r.deadline
		if run {
			r.paused = false
			r.deadline = r.cfg.Clock.Now().Add(r.left) // the deadline saved
		}
		if err := r.saveClock(); err != nil {
			r.hostPaused, r.paused, r.deadline = true, true, deadline
			return err
		}
		if run {
			r.schedule(r.left)
		}
		r.broadcastLobby()
		r.settle()
		return nil
	case "foul":
		if r.game == nil {
			return errCode(CodeNotStarted)
		}
		if target < 1 || target > r.game.Players() {
			return noSuchSeat(target, r.game.Players())
		}
		if err := r.apply(engine.Command{Verb: engine.Foul, Target: engine.Seat(target)}); err != nil {
			return err
		}
		r.settle()
		return nil
	}
	return &engine.Error{Code: CodeBadRequest, Name: action}
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
	seed := secret.Seed()
	if r.cfg.DealSeed != nil {
		seed = r.cfg.DealSeed()
	}
	roles, seed, err := r.set.deal(seed, r.hostSeat)
	if err != nil {
		return err
	}
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
	r.log = batch   // the table is playing, with the seed, in the store already (see save)
	r.blocked = nil // only joins read it, and there are none from now on
	r.initBots()
	r.seatsAway() // a seat of a person not connected now is away from the start
	if r.cfg.Metrics.GameStarted != nil {
		r.cfg.Metrics.GameStarted()
	}
	r.afterEvents(0, clk, newStep)
	r.broadcastLobby()
	r.settle()
	return nil
}
