package room

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"time"

	"mafia/admission"
	"mafia/bot"
	"mafia/engine"
	"mafia/locale"
	"mafia/rng"
	"mafia/store"
	"mafia/wire"
)

// Settings are what a table is created with; they are saved as the table's
// Data (store.Table.Data) and restored with it.
type Settings struct {
	Name     string            `json:"name"`
	Public   bool              `json:"public"`
	Setup    engine.Setup      `json:"setup"`
	Options  map[string]string `json:"options"`
	TimingMS map[string]int64  `json:"timings_ms"`
	// BotDelay is the least a bot waits before each move, at any pace
	// (pace.go): the fixed delay tables had before there was a pace.
	BotDelay time.Duration `json:"bot_delay"`
	// Pace is how long the bots take over their moves (pace.go):
	// PaceInstant or PaceHuman; "" (a table stored before there was a
	// pace) is instant.
	Pace string `json:"pace,omitempty"`
	// StandIn is how long a person's seat may have no connection during a
	// game before a bot plays it for them, until they are back
	// (standin.go); 0 (as every table stored before there were stand-ins):
	// never.
	StandIn time.Duration `json:"stand_in,omitempty"`
	// Sandbox, if set, fixes the deal of a table for its creator and bots
	// only (sandbox.go).
	Sandbox *Sandbox `json:"sandbox,omitempty"`
	// Bots is the level of the table's bots (bot.ParseMix: "smart", or a
	// level per side, "town=smart,mafia=random,maniac=random"); "" is
	// random, the level tables had before there were others.
	Bots string `json:"bots,omitempty"`
	// Lang is the table's language (locale: "ka", "en" or "ru"): its
	// creator's, recorded at the creation (DefaultLang when the creator
	// named none). Its bots' lines are rendered for each reader in the
	// reader's language (linelang.go); the table's is for a connection
	// that names none, and the text a bot's line is stored with. "" (a
	// table stored before there was one) is DefaultLang.
	Lang string `json:"lang,omitempty"`
	// Rated: the table's game changes its players' ratings
	// (docs/ratings.md): only accounts and bot accounts sit at it
	// (CodeRatedTable), the server's own bots fill none of its seats, and
	// the server rates the game once it has ended (Config.Ended).
	Rated bool `json:"rated,omitempty"`
	// Voice makes a voice table (docs/voice.md): VoiceSeats, its players
	// talk and hear each other as the rules let them; VoiceEveryone, its
	// spectators listen too; "" (every table stored before there was
	// voice) or VoiceOff: no voice.
	Voice string `json:"voice,omitempty"`
	// Played is who made each seat's moves, its person or a stand-in
	// (played.go): written with the table's row when the game ends; nil
	// before, and for a game that ended before there were counts.
	Played *Played `json:"played,omitempty"`
	// Reserved, if set, holds each seat for one account (Reserved[s-1];
	// 0: open to anyone), and the game starts by itself once every seat
	// is taken and each reserved seat's person is connected
	// (reserve.go). StartBy is when the reserved seats still free are
	// given to the server's bots and the game starts all the same (the
	// zero time: never).
	Reserved []int64   `json:"reserved,omitempty"`
	StartBy  time.Time `json:"start_by,omitzero"`
	// Owner names what opened a table of reserved seats and is told of
	// its end on whichever node it ends (a club's tournament:
	// "club/tournament"); kept with the table, never read by the room.
	Owner string `json:"owner,omitempty"`
}

// Metrics receives the room's measurements (all optional).
type Metrics struct {
	Command     func(d time.Duration, ok bool) // a request handled: how long from receipt to frames queued
	GameStarted func()
	GameEnded   func()
	Dropped     func() // a connection too slow to read was dropped
	// GameFrozen and GameThawed: a game stopped for lack of players, and
	// went on again (a frozen game is not a game in progress).
	GameFrozen func()
	GameThawed func()
}

// Config is what a room needs besides its table.
type Config struct {
	Store   Store
	Clock   Clock
	Log     *slog.Logger
	Metrics Metrics
	// Inbox bounds the room's queue of requests (default 256); a request
	// that finds it full is refused with CodeBusy.
	Inbox int
	// SendBuffer bounds each connection's queue of frames (default 64); a
	// connection that lets it fill is dropped.
	SendBuffer int
	// Linger is how long an ended game's room stays up with nobody
	// connected before it stops (default 2 minutes).
	Linger time.Duration
	// OnStop is called (from the room's goroutine) when the room stops.
	OnStop func(id string)
	// FreezeAfter is how long a game goes on with no person at the table
	// (no connection of a seat or of the host; spectators and bots do not
	// count) before it freezes (default DefaultFreezeAfter; negative:
	// never). See presence.go.
	FreezeAfter time.Duration
	// LobbyExpiry is how long a lobby table may have no person connected
	// and no join before it expires (default DefaultLobbyExpiry), and
	// EmptyLobbyExpiry the same for a lobby where no person holds a seat
	// (default DefaultEmptyLobbyExpiry); negative: never.
	LobbyExpiry, EmptyLobbyExpiry time.Duration
	// SeatsPerAddress bounds the seats of one table taken from one
	// network address (default DefaultSeatsPerAddress; negative: no
	// limit). A join with the host's token is not counted against it.
	SeatsPerAddress int
	// OwnerOf, if set, names the account that owns a bot account (its id
	// and name; ok false when it cannot be read): Resume gives a bot
	// account's seat its owner back, which the store does not keep, for
	// the seat limits and for the table to see (wire.SeatInfo.Owner).
	OwnerOf func(botAccount int64) (owner int64, name string, ok bool)
	// AddrsOf, if set, is the addresses (as JoinRequest.Addr writes them)
	// a person's logins took seats from lately, at any table: the seat
	// limits link a person to them as to their seats' own (withinSeatLimit).
	AddrsOf func(person int64) []string
	// Policy, if set, is consulted before the seat rules at every door of
	// the table (a join, a seat's connection, a relayed one): moderation
	// (a ban list) sits there. The seat rules themselves are
	// admission.Rules, from SeatsPerAddress and AddrsOf, behind it. It runs
	// on the room's goroutine: it must answer from memory.
	Policy admission.Policy
	// NightTick is the night's delivery cadence (default 1 s of the room's
	// clock): what only some seats may see at night waits for the next
	// tick, when every connected seat gets the same two frames (see
	// night.go).
	NightTick time.Duration
	// Ended, if set, is called (from the room's goroutine, once the end is
	// in the store) with the table's id when its game ends: the server
	// rates a rated table's game then. It must not block.
	Ended func(id string)
	// DealSeed, for tests only, gives the seed each game's deal is drawn
	// from (nil: a secret random one, as mafia serve always has): a test
	// chooses the deal its case needs (engine.Setup.Deal is pure) instead
	// of dealing again until the case comes. A sandbox's fixed deal is
	// unaffected; the bots' own seed is never this one.
	DealSeed func() uint64
	// Fence is the fencing token of the table's lease (store.Leases) that
	// this node holds: every store write of the table's state the room
	// makes carries it (store.Fenced), and the first one the store
	// refuses with store.ErrFenced lets the table go (fence.go). 0: no
	// fence (one node alone): the room writes to Store directly, and a
	// clustered store refuses that for a leased table (store.ErrUnfenced).
	Fence int64
	// Own, if set, is called by Create only, with the new table's id,
	// once the store has created the table and before the room writes
	// anything else or starts: it takes the table's lease for this node
	// and returns its token, which becomes the room's Fence. An error
	// fails the Create with that error (the table stays in the store,
	// unowned: the caller's to deal with). nil: Create fences nothing
	// (Fence as given).
	Own func(ctx context.Context, table string) (int64, error)
	// Lost, if set, is called once, on the room's goroutine, when a write
	// of the room was refused with store.ErrFenced (the table's lease
	// passed to another node): the room has dropped every connection with
	// CodeMoved and is stopping (Moved is true; Done closes, and OnStop
	// is called, after Lost returns). It must not block (it may not wait
	// for Stop). A room stopped by Move or Stop does not call it.
	Lost func(table string)
}

// The defaults of a room's watch on who is at the table (presence.go).
const (
	DefaultFreezeAfter      = time.Minute
	DefaultLobbyExpiry      = 30 * time.Minute
	DefaultEmptyLobbyExpiry = 10 * time.Minute
)

// DefaultSeatsPerAddress is how many seats of one table may be taken from
// one address: a few friends on one Wi-Fi, not a whole table.
const DefaultSeatsPerAddress = admission.DefaultSeatsPerAddress

// Out is one item for a connection to send: a ready frame, or a reply to
// render in the connection's language.
type Out struct {
	Frame []byte
	Reply *Reply
	// Queued is when the room queued the item, in Unix nanoseconds of the
	// room's clock (0: not known): a writer measures from it how long items
	// wait to be written. (A time.Time would make every queued item 16
	// bytes larger.)
	Queued int64
	buf    *frameBuf // Frame's pooled memory, if it has any (see Release)
}

// Reply answers one request: Err nil for accepted.
type Reply struct {
	ID  int64
	Err error
}

// Sub is one connection attached to the room.
type Sub struct {
	Seat engine.Seat // 0 for a spectator
	Host bool
	lang locale.Lang // the language it reads bots' lines in ("": the table's; linelang.go)
	out  outQueue    // taken with Take or Next; closed when the room drops the connection
	room *Room
	dead bool
	// why is the code the room dropped the connection with (see Why); set
	// before out is closed, so that a reader who found it closed sees it.
	why engine.Code
	// notify, if set, is called (on the room's goroutine) after each item
	// is queued and after the queue is closed; it must not block.
	notify func()
	// turnEnd, if set, is called (on the room's goroutine) at the end of
	// the room's turn for a connection the turn queued items for, in place
	// of notify after each of them (Entry.TurnEnd); queuedTurn marks the
	// connection as in the room's turnSubs.
	turnEnd    func()
	queuedTurn bool
	// group is told after its connections' turnEnds (Entry.TurnGroup).
	group TurnGroup
}

// Why is the room code the room dropped the connection with, once Take has
// reported its queue closed: CodeKicked, CodeSeatLeft, CodeTooSlow,
// CodeExpired, CodeMoved (the table passed to another node: the client
// reconnects, to any node) or CodeStopped ("" when the connection was
// detached, or is open).
func (s *Sub) Why() engine.Code {
	s.out.mu.Lock()
	defer s.out.mu.Unlock()
	if !s.out.closed {
		return ""
	}
	return s.why
}

// Room is one table's actor. Its fields are grouped by what they are for:
// the actor itself (its inbox, its life, its connections) here, and what
// the loop owns in the embedded groups below, each with its own type so
// that a reader sees at once which state a piece of code touches. All of
// the groups are owned by the room's goroutine (the loop) alone.
type Room struct {
	id    string
	cfg   Config
	inbox chan func()
	quit  chan struct{}
	done  chan struct{}
	lobby atomic.Pointer[wire.Lobby]
	// life ends when the room is stopped: appends wait for the store as
	// long as it (see save).
	life    context.Context
	endLife context.CancelFunc
	created time.Time // the table's creation, as stored (it never changes)
	// expired is set once the table has expired: the stopped room then
	// refuses with CodeExpired.
	expired atomic.Bool

	// owned by the loop
	subs     map[*Sub]struct{}
	stopping bool
	endedAt  time.Time
	// blocked holds the clients ("c" + hash of the id) and addresses ("a"
	// + key) the host kicked: they may not sit at this table again.
	blocked map[string]bool
	// unsaved are a background transition's store writes that failed, to
	// be tried again in order (rewrite is the timer); see persist.go.
	unsaved []write
	rewrite Timer

	tableState
	gameState
	clockState
	presenceState
	botState
	standInState
	// moves counts who made each seat's moves (played.go).
	moves Played
	deliveryState
	fenceState
}

// tableState is the table as stored and the people at it: what the lobby
// shows and a restart restores.
type tableState struct {
	table    store.Table
	set      Settings
	rules    engine.Ruleset
	timings  Timings
	seats    []seatState
	hostSeat engine.Seat
}

// gameState is the game once it is dealt: the engine's game, its log, and
// what is derived from them.
type gameState struct {
	game   *engine.Game
	before engine.Game // the game before the command being applied (see apply)
	log    []engine.Event
	view   engine.View
	// viewRules are the game's rules as every view carries them, converted
	// once when the game is made (see setGame).
	viewRules wire.Rules
}

// clockState is the current step's clock (clock.go, timers.go).
type clockState struct {
	step     int // index in log of the event that began the current step
	deadline time.Time
	left     time.Duration
	// paused is set when the clock is stopped: by the host (hostPaused),
	// because nobody is at the table (frozen), or both.
	paused, hostPaused, frozen bool
	timers                     []Timer // the current step's (stopTimers)
	retry                      Timer   // the step's end, tried again while the store fails (timeout)
}

// presenceState is the room's watch on who is at the table (presence.go).
type presenceState struct {
	// persons counts the connections of people (the host's, the seats');
	// presenceGen changes whenever someone comes or the watch restarts, so
	// that a stale freeze or expiry does nothing.
	persons, presenceGen int
	// absence is the pending freeze or expiry of a table nobody is at, and
	// linger the pending stop of an ended or frozen room nobody is
	// connected to: one of each at a time, each replaced (stopped) when
	// the count starts again, so that comings and goings leave no timers
	// behind.
	absence, linger Timer
}

// botState is the server's bots at the table (bots.go).
type botState struct {
	bots []bot.Bot
	// botTable shows each observing bot what its seat sees of every event
	// (bot.Table.Show), from the deal on (a resumed game replays its log).
	botTable  *bot.Table
	botDone   engine.SeatSet // bots done with the current step
	botQueued engine.SeatSet // bots with a turn scheduled (bot delay, pace)
	// botSeed is the bots' own seed (never the deal's: see initBots), and
	// paceSrc draws the bots' waits at human pace from it (pace.go).
	botSeed uint64
	paceSrc rng.Source
	// retrySrc draws the waits before a failed write is tried again
	// (retryWait, persist.go).
	retrySrc rng.Source
	// turns are the bots' scheduled turns by seat, each with its number
	// (turnGen): a turn that is not its seat's latest does nothing.
	turns   []Timer
	turnGen []uint32
	// botBegun are the bots that have begun their floor in the current
	// step (at human pace its items come one by one, botlines.go), and
	// lineShare each bot seat's share of the chat, as a person's.
	botBegun  engine.SeatSet
	lineShare []chatShare
	// nightTalked are the mafia bots asked for their lines this night
	// (botlines.go), and lastLine the last bot line posted in each
	// channel (chorus.go).
	nightTalked engine.SeatSet
	lastLine    map[string]bot.Line
}

// deliveryState is what the room has sent to whom, and the memory it
// reuses to build frames (broadcast.go, night.go, welcome.go, chatlog.go).
type deliveryState struct {
	// scratch, wview and wevents are reused by every message (see message).
	scratch wire.ViewScratch
	wview   wire.View
	wevents []wire.Event
	frames  []*frameBuf    // broadcast's frame for each seat (see broadcast)
	vis     []engine.Event // see visible
	// sent is how much of the log every seat has been sent (the seqs
	// count it): at night, events only some seats may see wait in
	// log[sent:] for the next tick.
	sent int
	seqs []int // events each seat (0: spectators) has been sent
	// renders are the bots' lines rendered in each language that read
	// them in a history page (linelang.go).
	renders map[renderKey]rendered
	// floor is the least length of the current step's seat frames (see
	// deliver): what the step's private events add fits under it.
	floor int
	// finalTick is the step whose last night tick (at its deadline) has
	// been sent (-1: none).
	finalTick int
	// mafiaLines are the mafia's chat lines waiting for a night tick.
	mafiaLines []mafiaLine
	// chatLog is the chat kept for connections that come later (chatlog.go).
	chatLog []chatLine
	// chats keeps the chat with the game (chatlog.go): the room's Store.
	chats store.ChatPages
	// chatSeq is the number of lines posted at this table (the next
	// line's place in its chat).
	chatSeq int
	// welcomes caches the length of the welcomes from a log position (see
	// welcomeLen), while welcomeKey holds.
	welcomes   map[int]int
	welcomeKey welcomeKey
	// lobbyDirty: a connection was dropped while sending; the lobby (who is
	// connected) goes out once the current request is done.
	lobbyDirty bool
	// turnSubs are the connections with a turnEnd that the current turn
	// queued items for, in the order of their first (see endTurn).
	turnSubs []*Sub
	// turnGroups are the groups of those connections, each once, told
	// after every turnEnd (turngroup.go).
	turnGroups []TurnGroup
	// watchers are told of each change of the step's state, and watched
	// is the state they were last told (watch.go).
	watchers map[*watcher]struct{}
	watched  StepState
}

type seatState struct {
	name      string
	tokenHash string
	bot       bool
	conns     int
	// standIn: a bot plays the seat for its person, who is away (standin.go).
	standIn bool
	// standInSeq is how many events the seat had been sent when its latest
	// stand-in began; backSince is that number plus one once the person
	// is to be told what the bot did (0: nothing to tell), until a
	// connection of the seat has been told (stoodin.go).
	standInSeq, backSince int
	// Who took the seat (a hash of the client's id, the address's key),
	// for the seat limits; kept in memory only.
	client, addr string
	// freeAddr: addr is exempt from the seat limit (JoinRequest.Unlimited).
	freeAddr bool
	// account is the account that took the seat (0: a guest's, a
	// server's bot's); botAccount: it is a bot an account owns, and the
	// seat is shown as a bot's.
	account    int64
	botAccount bool
	// owner is the account that owns a bot account's seat, ownerName its
	// name (kept in memory only: a seat reloaded after a restart has them
	// from Config.OwnerOf).
	owner     int64
	ownerName string
}

// ID returns the table's id.
func (r *Room) ID() string { return r.id }

// CreatedAt returns when the table was made (safe from any goroutine).
func (r *Room) CreatedAt() time.Time { return r.created }

// Lobby returns the table's public description (safe from any goroutine).
func (r *Room) Lobby() wire.Lobby { return *r.lobby.Load() }

// Done is closed when the room has stopped.
func (r *Room) Done() <-chan struct{} { return r.done }

// Stop stops the room's goroutine and waits for it. It is also how a node
// lets a table go of its own accord (Move, for a drain's handover): once
// Stop has returned, the room writes nothing more and no write of it is in
// flight, so the table's lease may be released (store.Leases.Release) and
// the next owner loads the table as the store has it.
//
// Precisely: the room makes every store write on its goroutine and waits
// for it, and Stop waits for that goroutine to end. The request being
// handled when Stop is called runs to its end; nothing queued after it is
// begun (its caller is refused with CodeStopped, its connection dropped).
// An append or a chat line still waiting for the store's writer gives up:
// never written, its command refused; one the writer has taken is
// committed before Stop returns. The background writes kept after a
// failure (persist.go) are tried once more; those that fail again are not
// made (they are logged), and the store keeps the table as of its last
// committed write. Every connection is then dropped with CodeStopped
// (CodeMoved if the table had moved, CodeExpired if it had expired).
func (r *Room) Stop() {
	select {
	case <-r.quit:
	default:
		close(r.quit)
	}
	// An append still waiting for the store's writer gives up (nothing
	// written, the command refused), so that stopping never waits on a
	// stalled store; one the writer has taken is committed first.
	r.endLife()
	<-r.done
}

// do runs f on the room's goroutine and waits; it fails with CodeBusy when
// the inbox is full and CodeStopped when the room has stopped.
func (r *Room) do(ctx context.Context, f func()) error {
	ran := make(chan struct{})
	select {
	case r.inbox <- func() { f(); close(ran) }:
	case <-r.done:
		return r.stoppedErr()
	default:
		return errCode(CodeBusy)
	}
	select {
	case <-ran:
		return nil
	case <-r.done:
		return r.stoppedErr()
	case <-ctx.Done():
		return ctx.Err()
	}
}

// post queues f on the room's goroutine without waiting.
func (r *Room) post(f func()) error {
	select {
	case <-r.done: // checked first: a stopped room must say so, not drop f
		return r.stoppedErr()
	default:
	}
	select {
	case r.inbox <- f:
		return nil
	case <-r.done:
		return r.stoppedErr()
	default:
		return errCode(CodeBusy)
	}
}

// stoppedErr is the refusal of a stopped room: CodeMoved for a table that
// passed to another node, CodeExpired for one that expired, CodeStopped
// otherwise.
func (r *Room) stoppedErr() error { return errCode(r.stoppedCode()) }

// stoppedCode is CodeMoved for a table that passed to another node,
// CodeExpired for one that expired, else CodeStopped.
func (r *Room) stoppedCode() engine.Code {
	if r.moved.Load() || r.moving.Load() { // moving: Move is stopping it
		return CodeMoved
	}
	if r.expired.Load() {
		return CodeExpired
	}
	return CodeStopped
}

// errorsAs is errors.As for an *engine.Error.
func errorsAs(err error) (*engine.Error, bool) {
	var e *engine.Error
	ok := errors.As(err, &e)
	return e, ok
}

// personOf is the account a seat's player is: the account's own, or for a
// bot account its owner's.
func (st seatState) personOf() int64 {
	if st.botAccount {
		return st.owner
	}
	return st.account
}
