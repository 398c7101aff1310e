package server

// This file holds what an anonymous client may take: WebSockets (per
// address, per seat, spectators per table, in total), frames per address,
// chat per table, and tables per address. Each refusal has its code.

import (
	"math"
	"net/netip"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"mafia/engine"
	"mafia/internal/httpguard"
	"mafia/room"
)

// Codes of the server's limits (catalog id "error.<code>").
const (
	// CodeTooManyConnections refuses a WebSocket (429) or a TCP connection
	// from an address that has as many open as it may.
	CodeTooManyConnections engine.Code = "too_many_connections"
	// CodeSeatConnections refuses a WebSocket of a seat (or of the host)
	// whose token has as many open as it may (429).
	CodeSeatConnections engine.Code = "seat_connections"
	// CodeSpectatorsFull refuses a spectator at a table that has as many
	// as it can take (503); seats can still connect.
	CodeSpectatorsFull engine.Code = "spectators_full"
	// CodeServerFull refuses a connection or a table when the server holds
	// as many in total as it can (503).
	CodeServerFull engine.Code = "server_full"
	// CodeCreatingTooFast refuses a table from an address that made its
	// share lately (429).
	CodeCreatingTooFast engine.Code = "creating_too_fast"
	// CodeTooManyTables refuses a table from an address with as many
	// tables still in the lobby as it may have (429).
	CodeTooManyTables engine.Code = "too_many_tables"
	// CodeChatBusy refuses a chat line when the table's chat (or the
	// sender's share of it) is at its rate; the line is not posted. It is
	// the room's code for a full night queue of the mafia's lines too.
	CodeChatBusy = room.CodeChatBusy
	// CodeFlood is the last frame of a connection that kept sending frames
	// that were refused; the server then closes it (1008 "flood").
	CodeFlood engine.Code = "flood"
	// CodeFloodWait refuses a WebSocket (429, Retry-After: N seconds) from
	// an address whose connection was lately closed as a flood, until its
	// penalty is over (Limits.FloodPenalty).
	CodeFloodWait engine.Code = "flood_wait"
)

// Limits are what one client, one table and the whole server may hold.
// A zero field takes its default (see withDefaults).
type Limits struct {
	// MaxConns bounds the open WebSockets in total; 0: derived from the
	// process's open-file limit (see ConnCaps).
	MaxConns int
	// ConnsPerAddr bounds one client address's open WebSockets (64).
	ConnsPerAddr int
	// ConnsPerSeat bounds the open WebSockets of one token: a seat's, or
	// the host's (6).
	ConnsPerSeat int
	// SpectatorsPerTable bounds one table's spectators (200). Seats have
	// their own share (ConnsPerSeat each), so they can always connect.
	SpectatorsPerTable int

	// MaxTCP bounds the open TCP connections of the public listener; 0:
	// derived from the open-file limit (see ConnCaps).
	MaxTCP int
	// TCPPerAddr bounds one peer's open TCP connections at the listener
	// (256); trusted proxies are not bounded there.
	TCPPerAddr int

	// AddrRate and AddrBurst bound the frames of one client address across
	// all its connections (60 a second, bursts of 120), beside each
	// connection's own Config.Rate and Config.Burst.
	AddrRate  float64
	AddrBurst int
	// FloodRate and FloodBurst bound the refused frames a connection may
	// send (5 a second, 100 at once); past them it is closed as a flood.
	FloodRate  float64
	FloodBurst int

	// FloodPenalty is how long an address whose connection was closed as
	// a flood waits before it may open another WebSocket (2 s); each flood
	// of the address within the decay doubles it, up to FloodPenaltyMax
	// (5 minutes); every FloodPenaltyDecay (1 minute) without a flood
	// forgets one (CodeFloodWait).
	FloodPenalty      time.Duration
	FloodPenaltyMax   time.Duration
	FloodPenaltyDecay time.Duration

	// GetRate and GetBurst bound one address's GET requests of the public
	// API (the lobby, a table, its log and record, the leaderboards): 20 a
	// second, bursts of 200 (CodeRateLimited, Retry-After). WebSockets have
	// their own caps.
	GetRate  float64
	GetBurst int

	// ChatRate and ChatBurst bound one table's chat lines, from everyone
	// (10 a second, bursts of 20).
	ChatRate  float64
	ChatBurst int
	// SeatChatRate and SeatChatBurst bound one seat's share (3, 6).
	SeatChatRate  float64
	SeatChatBurst int
	// SpectatorChatRate and SpectatorChatBurst bound all the spectators'
	// lines together (2, 5): the seated always keep the rest.
	SpectatorChatRate  float64
	SpectatorChatBurst int

	// CreateRate and CreateBurst bound one address's new tables (one
	// every 12 s, bursts of 5).
	CreateRate  float64
	CreateBurst int
	// LobbyTablesPerAddr bounds the tables one address made that are still
	// in the lobby (5); LobbyTables bounds them in total (1000).
	LobbyTablesPerAddr int
	LobbyTables        int

	// Unlimited are client addresses the per-address limits do not apply
	// to (e.g. a load generator); the totals still do.
	Unlimited []netip.Prefix
}

// reserveFiles are the open files kept out of the connection caps: the
// database, the log, the operator's listener and its connections.
const reserveFiles = 256

// ConnCaps derives the connection caps from the process's open-file
// limit: every TCP connection of the public listener but reserveFiles, and
// of those 7/8 for WebSockets, so that lobby requests still find a file.
func ConnCaps(fileLimit uint64) (tcp, ws int) {
	n := int(min(fileLimit, 1<<24))
	tcp = max(n-reserveFiles, 64)
	ws = max(tcp-tcp/8, 32)
	return tcp, ws
}

func (l Limits) withDefaults(fileLimit uint64) Limits {
	tcp, ws := ConnCaps(fileLimit)
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	deff := func(v *float64, d float64) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.MaxConns, ws)
	def(&l.ConnsPerAddr, 64)
	def(&l.ConnsPerSeat, 6)
	def(&l.SpectatorsPerTable, 200)
	def(&l.MaxTCP, tcp)
	def(&l.TCPPerAddr, 256)
	deff(&l.AddrRate, 60)
	def(&l.AddrBurst, 120)
	deff(&l.FloodRate, 5)
	def(&l.FloodBurst, 100)
	defd := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	defd(&l.FloodPenalty, 2*time.Second)
	defd(&l.FloodPenaltyMax, 5*time.Minute)
	defd(&l.FloodPenaltyDecay, time.Minute)
	deff(&l.GetRate, 20)
	def(&l.GetBurst, 200)
	deff(&l.ChatRate, 10)
	def(&l.ChatBurst, 20)
	deff(&l.SeatChatRate, 3)
	def(&l.SeatChatBurst, 6)
	deff(&l.SpectatorChatRate, 2)
	def(&l.SpectatorChatBurst, 5)
	deff(&l.CreateRate, 1.0/12)
	def(&l.CreateBurst, 5)
	def(&l.LobbyTablesPerAddr, 5)
	def(&l.LobbyTables, 1000)
	return l
}

// guards counts what clients hold. Its maps live under mu; a connection
// keeps pointers to its address's and its table's entries, whose limiters
// are safe without mu, so that no frame takes the lock.
type guards struct {
	lim Limits
	// inLobby reports whether a table is still in the lobby (it takes the
	// server's lock: guards.mu, then Server.mu, never the other way).
	inLobby func(id string) bool
	mu      sync.Mutex
	conns   int
	addrs   map[netip.Prefix]*addrState
	tables  map[string]*tableGuard
	// grown counts addrs entries made since the last sweep.
	grown int
	// pending counts tables being made now.
	pending int
	// gets is the addresses' rate of GET requests (Limits.GetRate).
	gets *httpguard.Rates
	// seen is the addresses accounts took seats from lately (seen.go).
	seen seenAddrs
}

// addrState is one client address (see httpguard.Key).
type addrState struct {
	conns   int      // open WebSockets (mu)
	lobby   []string // tables it made that may still be in the lobby (mu)
	pending int      // tables it is making now (mu)
	frames  *rate.Limiter
	creates *rate.Limiter
	// floods counts the address's connections closed as floods, less one
	// for every FloodPenaltyDecay since lastFlood; it may open no
	// WebSocket before waitUntil (mu).
	floods    int
	lastFlood time.Time
	waitUntil time.Time
}

// tableGuard is one table's connections and chat.
type tableGuard struct {
	conns      int            // (guards.mu)
	spectators int            // (guards.mu)
	tokens     map[string]int // connections by token hash: a seat's, the host's (guards.mu)
	chat       *rate.Limiter
	spectChat  *rate.Limiter
	mu         sync.Mutex
	seatChat   map[engine.Seat]*rate.Limiter // (mu)
}

func newGuards(lim Limits, inLobby func(id string) bool) *guards {
	return &guards{lim: lim, inLobby: inLobby, addrs: map[netip.Prefix]*addrState{}, tables: map[string]*tableGuard{},
		gets: httpguard.NewRates(lim.GetRate, lim.GetBurst)}
}

func limitErr(c engine.Code) error { return &engine.Error{Code: c} }

// addr returns an address's entry (nil for an unlimited address), making
// it if need be. Call with mu held.
func (g *guards) addrLocked(a netip.Addr, now time.Time) *addrState {
	if httpguard.In(a, g.lim.Unlimited) {
		return nil
	}
	k := httpguard.Key(a)
	st := g.addrs[k]
	if st == nil {
		st = &addrState{frames: rate.NewLimiter(rate.Limit(g.lim.AddrRate), g.lim.AddrBurst),
			creates: rate.NewLimiter(rate.Limit(g.lim.CreateRate), g.lim.CreateBurst)}
		g.addrs[k] = st
		g.grown++
		if g.grown > 1024 && g.grown > len(g.addrs)/2 {
			g.sweepLocked(now)
		}
	}
	return st
}

// sweepLocked forgets addresses that hold nothing (their tables have left
// the lobby) and whose limiters are full again: they would start over the
// same.
func (g *guards) sweepLocked(now time.Time) {
	g.grown = 0
	for k, st := range g.addrs {
		g.pruneLocked(st)
		if st.conns == 0 && len(st.lobby) == 0 && st.pending == 0 && g.floodsAt(st, now) == 0 && !now.Before(st.waitUntil) &&
			st.frames.TokensAt(now) >= float64(g.lim.AddrBurst) && st.creates.TokensAt(now) >= float64(g.lim.CreateBurst) {
			delete(g.addrs, k)
		}
	}
}

// ticket is what one WebSocket holds; release gives it back.
type ticket struct {
	g       *guards
	addr    *addrState // nil: an unlimited address
	table   *tableGuard
	tableID string
	token   string // the token's hash; "" for a spectator
	once    sync.Once
}

// admit reserves a WebSocket at a table for a client address and a token
// (its hash, "" for a spectator), before the room sees it: in total, for
// the address, and at the table a spectator's share or the token's. A
// token the room then refuses (bad_token) gives its place back at once.
func (g *guards) admit(a netip.Addr, table, token string, now time.Time) (*ticket, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.conns >= g.lim.MaxConns {
		return nil, limitErr(CodeServerFull)
	}
	st := g.addrLocked(a, now)
	if st != nil && now.Before(st.waitUntil) {
		secs := int(math.Ceil(st.waitUntil.Sub(now).Seconds()))
		return nil, &engine.Error{Code: CodeFloodWait, N: max(secs, 1)}
	}
	if st != nil && st.conns >= g.lim.ConnsPerAddr {
		return nil, limitErr(CodeTooManyConnections)
	}
	tg := g.tables[table]
	if tg != nil && token == "" && tg.spectators >= g.lim.SpectatorsPerTable {
		return nil, limitErr(CodeSpectatorsFull)
	}
	if tg != nil && token != "" && tg.tokens[token] >= g.lim.ConnsPerSeat {
		return nil, limitErr(CodeSeatConnections)
	}
	if tg == nil {
		tg = &tableGuard{tokens: map[string]int{},
			chat:      rate.NewLimiter(rate.Limit(g.lim.ChatRate), g.lim.ChatBurst),
			spectChat: rate.NewLimiter(rate.Limit(g.lim.SpectatorChatRate), g.lim.SpectatorChatBurst),
			seatChat:  map[engine.Seat]*rate.Limiter{}}
		g.tables[table] = tg
	}
	g.conns++
	if st != nil {
		st.conns++
	}
	tg.conns++
	if token == "" {
		tg.spectators++
	} else {
		tg.tokens[token]++
	}
	return &ticket{g: g, addr: st, table: tg, tableID: table, token: token}, nil
}

// release gives back what the ticket holds (once).
func (t *ticket) release() {
	t.once.Do(func() {
		g := t.g
		g.mu.Lock()
		defer g.mu.Unlock()
		g.conns--
		if t.addr != nil {
			t.addr.conns--
		}
		tg := t.table
		tg.conns--
		if t.token == "" {
			tg.spectators--
		} else if tg.tokens[t.token]--; tg.tokens[t.token] <= 0 {
			delete(tg.tokens, t.token)
		}
		if tg.conns == 0 && g.tables[t.tableID] == tg {
			delete(g.tables, t.tableID)
		}
	})
}

// floodsAt is the address's floods not yet forgotten at now. Call with mu
// held.
func (g *guards) floodsAt(st *addrState, now time.Time) int {
	if st.floods == 0 {
		return 0
	}
	gone := int(now.Sub(st.lastFlood) / g.lim.FloodPenaltyDecay)
	return max(st.floods-gone, 0)
}

// flooded records that the ticket's connection was closed as a flood: its
// address may open no WebSocket for the penalty, which doubles with each
// flood not yet forgotten, up to FloodPenaltyMax.
func (t *ticket) flooded(now time.Time) {
	if t.addr == nil {
		return // an unlimited address
	}
	g := t.g
	g.mu.Lock()
	defer g.mu.Unlock()
	st := t.addr
	n := g.floodsAt(st, now) + 1
	st.floods, st.lastFlood = n, now
	wait := g.lim.FloodPenalty
	for i := 1; i < n && wait < g.lim.FloodPenaltyMax; i++ {
		wait *= 2
	}
	st.waitUntil = now.Add(min(wait, g.lim.FloodPenaltyMax))
}

// frame takes one frame from the address's share (always true for an
// unlimited address).
func (t *ticket) frame(now time.Time) bool {
	return t.addr == nil || t.addr.frames.AllowN(now, 1)
}

// chat takes one chat line from the sender's share (a seat's, or all the
// spectators' together) and the table's; a line refused by either costs
// neither.
func (t *ticket) chat(seat engine.Seat, now time.Time) bool {
	tg := t.table
	tg.mu.Lock()
	defer tg.mu.Unlock()
	own := tg.spectChat
	if seat != 0 {
		own = tg.seatChat[seat]
		if own == nil {
			own = rate.NewLimiter(rate.Limit(t.g.lim.SeatChatRate), t.g.lim.SeatChatBurst)
			tg.seatChat[seat] = own
		}
	}
	if own.TokensAt(now) < 1 || !tg.chat.AllowN(now, 1) {
		return false
	}
	return own.AllowN(now, 1)
}

// pruneLocked forgets the address's tables that have left the lobby.
func (g *guards) pruneLocked(st *addrState) {
	kept := st.lobby[:0]
	for _, id := range st.lobby {
		if g.inLobby(id) {
			kept = append(kept, id)
		}
	}
	clear(st.lobby[len(kept):])
	st.lobby = kept
	if len(st.lobby) == 0 {
		st.lobby = nil
	}
}

// createAllowed reserves a new table for an address: refused while the
// address has LobbyTablesPerAddr tables in the lobby, while the server has
// LobbyTables (lobbyTotal), or past the address's creation rate. The
// reservation ends with created.
func (g *guards) createAllowed(a netip.Addr, now time.Time, lobbyTotal int) (*addrState, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	st := g.addrLocked(a, now)
	if st != nil {
		g.pruneLocked(st)
		if len(st.lobby)+st.pending >= g.lim.LobbyTablesPerAddr {
			return nil, limitErr(CodeTooManyTables)
		}
	}
	if lobbyTotal+g.pending >= g.lim.LobbyTables {
		return nil, limitErr(CodeServerFull)
	}
	if st != nil && !st.creates.AllowN(now, 1) {
		return nil, limitErr(CodeCreatingTooFast)
	}
	g.pending++
	if st != nil {
		st.pending++
	}
	return st, nil
}

// created ends a reservation of createAllowed: id is the new table, "" if
// none was made.
func (g *guards) created(st *addrState, id string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.pending--
	if st == nil {
		return
	}
	st.pending--
	if id != "" {
		st.lobby = append(st.lobby, id)
	}
}

// open returns the open WebSockets.
func (g *guards) open() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.conns
}
