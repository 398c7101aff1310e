package room

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"mafia/bot"
	"mafia/engine"
	"mafia/internal/secret"
	"mafia/locale"
	"mafia/rng"
	"mafia/store"
	"mafia/wire"
)

func (cfg *Config) defaults() {
	if cfg.Clock == nil {
		cfg.Clock = RealClock{}
	}
	if cfg.Inbox <= 0 {
		cfg.Inbox = 256
	}
	if cfg.SendBuffer <= 0 {
		cfg.SendBuffer = 64
	}
	if cfg.Linger <= 0 {
		cfg.Linger = 2 * time.Minute
	}
	if cfg.SeatsPerAddress == 0 {
		cfg.SeatsPerAddress = DefaultSeatsPerAddress
	}
	if cfg.FreezeAfter == 0 {
		cfg.FreezeAfter = DefaultFreezeAfter
	}
	if cfg.LobbyExpiry == 0 {
		cfg.LobbyExpiry = DefaultLobbyExpiry
	}
	if cfg.EmptyLobbyExpiry == 0 {
		cfg.EmptyLobbyExpiry = DefaultEmptyLobbyExpiry
	}
	if cfg.NightTick <= 0 {
		cfg.NightTick = DefaultNightTick
	}
}

// Check validates settings and returns the ruleset and timings they name.
func (s *Settings) Check() (engine.Ruleset, Timings, error) {
	if s.Name == "" {
		return engine.Ruleset{}, Timings{}, errCode(CodeNameRequired)
	}
	if _, err := s.Setup.Validate(); err != nil {
		return engine.Ruleset{}, Timings{}, err
	}
	rules, err := engine.ParseRules(s.Options)
	if err != nil {
		return rules, Timings{}, err
	}
	t, err := TimingsFromMillis(s.TimingMS)
	if err != nil {
		return rules, t, err
	}
	if !t.Valid() {
		return rules, t, &engine.Error{Code: CodeBadRequest, Name: "timings"}
	}
	if s.BotDelay < 0 || s.BotDelay > MaxBotDelay {
		return rules, t, outOfRange(CodeBadBotDelay, s.BotDelay.Milliseconds(), MaxBotDelay)
	}
	if s.StandIn < 0 || s.StandIn > MaxStandIn {
		return rules, t, outOfRange(CodeBadStandIn, s.StandIn.Milliseconds(), MaxStandIn)
	}
	if s.Pace != "" && s.Pace != PaceInstant && s.Pace != PaceHuman {
		return rules, t, &engine.Error{Code: CodeBadPace, Value: s.Pace}
	}
	if s.Bots != "" {
		if _, err := bot.ParseMix(s.Bots); err != nil {
			return rules, t, err
		}
	}
	if s.Lang != "" {
		if _, ok := locale.Parse(s.Lang); !ok || len(s.Lang) != 2 {
			return rules, t, &engine.Error{Code: CodeBadRequest, Name: "lang", Value: s.Lang}
		}
	}
	if err := s.checkReserved(); err != nil {
		return rules, t, err
	}
	if s.Sandbox != nil {
		if s.Rated {
			return rules, t, errCode(CodeRatedTable)
		}
		if s.Public {
			return rules, t, errCode(CodeSandboxPublic)
		}
		if err := s.Sandbox.check(s.Setup); err != nil {
			return rules, t, err
		}
	}
	switch s.Voice {
	case "", VoiceOff, VoiceSeats, VoiceEveryone:
	default:
		return rules, t, &engine.Error{Code: CodeBadRequest, Name: "voice", Value: s.Voice}
	}
	return rules, t, nil
}

func newRoom(cfg Config, t store.Table, set Settings, rules engine.Ruleset, tm Timings) *Room {
	cfg.defaults()
	r := &Room{
		id: t.ID, created: t.CreatedAt, cfg: cfg, inbox: make(chan func(), cfg.Inbox), quit: make(chan struct{}), done: make(chan struct{}),
		subs:       map[*Sub]struct{}{},
		tableState: tableState{table: t, set: set, rules: rules, timings: tm, seats: make([]seatState, set.Setup.Players()+1)},
	}
	r.frames = make([]*frameBuf, len(r.seats))
	r.finalTick = -1
	r.retrySrc = newRetrySource()
	r.setFence(cfg.Fence)
	if r.cfg.Log == nil {
		r.cfg.Log = slog.New(slog.DiscardHandler)
	}
	r.cfg.Log = r.cfg.Log.With("table", t.ID)
	return r
}

// Create makes a new table in the lobby state and starts its room. Its name
// is trimmed and checked (CheckTableName). It returns the room and the
// host's secret token (only its hash is stored). With Config.Own, the table
// is owned (its lease taken) as soon as the store has it, and every write
// after that is fenced with the lease's token; Own's error is Create's.
func Create(ctx context.Context, cfg Config, set Settings) (*Room, string, error) {
	// A new table's name is checked here, not by Check: a table stored
	// before the rules of names must still resume.
	name, err := CheckTableName(set.Name)
	if err != nil {
		return nil, "", err
	}
	set.Name = name
	if set.Lang == "" {
		set.Lang = string(DefaultLang)
	}
	rules, tm, err := set.Check()
	if err != nil {
		return nil, "", err
	}
	conf, _ := json.Marshal(set)
	host := secret.Token()
	now := cfg.clockNow()
	t := store.Table{ID: secret.Token()[:16], Kind: store.KindOnline, Name: set.Name, Public: set.Public, Status: store.StatusLobby,
		Data: conf, HostToken: secret.Hash(host), CreatedAt: now, UpdatedAt: now}
	if !set.Public {
		t.Invite = t.ID
	}
	r := newRoom(cfg, t, set, rules, tm)
	if err := cfg.Store.CreateTable(ctx, t, r.storeSeats()); err != nil {
		r.cfg.Log.Error("create table", "err", err)
		return nil, "", errCode(CodeInternal)
	}
	if cfg.Own != nil {
		token, err := cfg.Own(ctx, t.ID)
		if err != nil {
			r.endLife()
			return nil, "", err
		}
		r.setFence(token) // before the room writes or runs: no race
	}
	r.publishLobby()
	r.watchAbsence() // nobody is connected yet (the room is not running: no race)
	r.watchStartBy()
	go r.run()
	return r, host, nil
}

func (cfg *Config) clockNow() time.Time {
	if cfg.Clock == nil {
		return time.Now()
	}
	return cfg.Clock.Now()
}

// Resume restarts a stored table's room: its seats, its game replayed from
// the log, and its clock with the time that was left when the server last
// said it was alive (lastAlive). With Config.Fence its writes are fenced
// from the first; one fenced out before the room runs (a status repaired,
// as the lease passed on) stops the room as soon as it starts (Moved).
func Resume(cfg Config, t store.Table, seats []store.Seat, log []engine.Event, clk store.Clock, lastAlive time.Time) (*Room, error) {
	if t.Status == store.StatusExpired {
		return nil, errCode(CodeExpired)
	}
	var set Settings
	if err := json.Unmarshal(t.Data, &set); err != nil {
		return nil, err
	}
	rules, tm, err := set.Check()
	if err != nil {
		return nil, err
	}
	r := newRoom(cfg, t, set, rules, tm)
	for _, s := range seats {
		if s.Seat >= 1 && s.Seat < len(r.seats) {
			r.seats[s.Seat] = seatState{name: s.Name, tokenHash: s.TokenHash, bot: s.Bot, account: s.Account, botAccount: s.BotAccount}
			if s.BotAccount && s.Account != 0 && cfg.OwnerOf != nil {
				if owner, name, ok := cfg.OwnerOf(s.Account); ok {
					r.seats[s.Seat].owner, r.seats[s.Seat].ownerName = owner, name
				}
			}
			if s.TokenHash != "" && s.TokenHash == t.HostToken {
				r.hostSeat = engine.Seat(s.Seat)
			}
		}
	}
	if len(log) > 0 {
		g, err := engine.Replay(log)
		if err != nil {
			return nil, err
		}
		r.setGame(g, log)
		r.markSent(len(log)) // whatever waited for a tick reaches each seat in its welcome
		if from := r.table.Status; r.repairStatus() {
			r.cfg.Log.Warn("table status repaired from its log", "from", string(from), "to", string(r.table.Status))
			r.persist(r.tableWrite())
		}
		r.initBots()
		r.seatsAway() // nobody is connected yet: a restart is everyone's drop
		r.step = lastStepStart(log)
		if !g.Ended() {
			dur := tm.For(g.Phase())
			left := dur
			if clk.Step == r.step {
				if clk.Paused {
					left, r.paused, r.hostPaused = clk.Left, true, true
				} else if !lastAlive.IsZero() {
					left = clk.Deadline.Sub(lastAlive)
				}
			}
			left = min(max(left, 0), dur)
			r.left = left
			if t.Status == store.StatusFrozen {
				// Frozen it stays until one of its people comes back.
				r.frozen, r.paused = true, true
				r.left = frozenLeft(clk, r.step, dur)
			}
		} else {
			r.endedAt = r.cfg.Clock.Now()
		}
	}
	ctx, cancel := r.ctx()
	if err := r.loadChat(ctx); err != nil {
		// The game goes on without the lines said before the restart:
		// nobody is sent them again (its record, read later, fails alike).
		r.cfg.Log.Error("load chat", "err", err)
	}
	cancel()
	r.publishLobby()
	r.watchAbsence() // nobody is connected yet (the room is not running: no race)
	r.watchStartBy()
	// What the room does first is decided before it runs: from then on its
	// state is its goroutine's alone.
	var first func()
	switch {
	case r.game == nil:
	case r.game.Ended() || r.frozen:
		first = r.maybeLinger
	default:
		first = func() {
			if !r.paused {
				r.schedule(r.left)
			}
			r.settle()
		}
	}
	go r.run()
	if first != nil {
		select { // never dropped (post would refuse a full inbox)
		case r.inbox <- first:
		case <-r.done:
		}
	}
	return r, nil
}

// repairStatus makes the table's status agree with its game, as a crash
// between two writes of an older server could leave them (it saved the
// status after the events that start and end a game): a game that has
// begun is playing, with its seed, and one that has ended is ended, with
// its winner. It reports whether it changed the table.
func (r *Room) repairStatus() bool {
	t := &r.table
	switch {
	case r.game.Ended() && t.Status != store.StatusEnded:
		t.Status, t.Winner = store.StatusEnded, r.game.Winner().String()
	case !r.game.Ended() && t.Status == store.StatusLobby:
		t.Status, t.Seed = store.StatusPlaying, r.game.Seed()
	default:
		return false
	}
	return true
}

// lastStepStart is the index of the last event that began a timed step.
func lastStepStart(log []engine.Event) int {
	for i := len(log) - 1; i >= 0; i-- {
		if stepStart(log[i].Kind) {
			return i
		}
	}
	return 0
}

// stepStart reports whether an event of kind k begins a step that runs on
// the clock: every step's beginning (engine.EventKind.BeginsStep) but the
// game's end.
func stepStart(k engine.EventKind) bool {
	return k.BeginsStep() && k != engine.EvGameEnded
}

// paceStream is the stream of the bots' seed their waits are drawn from
// (each bot's own is its seat's number).
const paceStream = 1 << 32

// initBots gives each bot seat its player. The bots draw from a seed of
// their own, never from the deal's: a bot's moves are seen by everyone, and
// moves drawn from the deal's seed would let an observer recover the seed
// (the generator is not a cryptographic one) and from it the deal.
// Each is of the level the table's settings give its card's side
// (Settings.Bots), and one that observes is shown the game so far. The
// bots' waits (pace.go) are drawn from the same seed of their own.
func (r *Room) initBots() {
	seed := secret.Seed()
	r.botSeed, r.paceSrc = seed, rng.New(rng.Derive(seed, paceStream))
	r.turns, r.turnGen = make([]Timer, len(r.seats)), make([]uint32, len(r.seats))
	mix, _ := bot.ParseMix(r.set.Bots) // checked at the table's creation; "" is random
	r.bots = make([]bot.Bot, len(r.seats))
	for s := 1; s < len(r.seats); s++ {
		if r.seats[s].bot {
			r.bots[s] = mix.For(r.game.Role(engine.Seat(s))).New(rng.Derive(seed, uint64(s)))
		}
	}
	r.botTable = &bot.Table{Game: r.game, Bots: r.bots}
	r.botTable.Begin(r.log)
}

func (r *Room) storeSeats() []store.Seat {
	out := make([]store.Seat, 0, len(r.seats)-1)
	for s := 1; s < len(r.seats); s++ {
		st := r.seats[s]
		out = append(out, store.Seat{Seat: s, Name: st.name, TokenHash: st.tokenHash, Bot: st.bot,
			Account: st.account, BotAccount: st.botAccount})
	}
	return out
}

// publishLobby refreshes the lobby snapshot others read without the loop.
func (r *Room) publishLobby() {
	l := wire.Lobby{Table: r.id, Name: r.set.Name, Public: r.set.Public, Status: r.lobbyStatus(),
		Players: len(r.seats) - 1, Rules: r.rules.Map(), Timings: r.timings.Millis(), RulesCode: engine.RulesCode(r.rules), Paused: r.paused,
		PauseReason: r.pauseReason(), Sandbox: r.set.Sandbox != nil, Rated: r.set.Rated, Bots: r.set.Bots,
		StandInMS: r.set.StandIn.Milliseconds()}
	if v := r.set.Voice; v != "" && v != VoiceOff {
		l.Voice = v
	}
	if r.set.Pace == PaceHuman {
		l.Pace = PaceHuman
	}
	for s := 1; s < len(r.seats); s++ {
		st := r.seats[s]
		l.Seats = append(l.Seats, wire.SeatInfo{Seat: s, Name: st.name, Bot: st.bot,
			Taken: st.bot || st.tokenHash != "", Connected: st.bot || st.conns > 0, StandIn: st.standIn,
			Account: st.account != 0, BotAccount: st.botAccount, Owner: st.ownerName})
	}
	r.lobby.Store(&l)
}
