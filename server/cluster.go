package server

// This file is the server's part in a cluster of nodes on one database
// (docs/cluster.md): every table it runs is its own through the table's
// lease (store.Leases), renewed every third of the lease's time; each
// write of the table carries the lease's fencing token, so that a node
// that lost a table can never write it again; a table whose lease ran out
// (its node died or was paused) is taken over, replayed from the log; a
// request for a table another node holds is passed to that node; and a
// drain hands every live table over before the node stops.

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"sort"
	"sync"
	"time"

	"mafia/engine"
	"mafia/room"
	"mafia/store"
	"mafia/wire"
)

// CodeTableMoving answers a request for a table that is passing from one
// node of a cluster to another (its lease is free, or held by a node that
// is leaving): try again in a moment (Retry-After), through any node.
const CodeTableMoving engine.Code = "table_moving"

// Cluster makes a server one node of a cluster (Config.Cluster); its
// store must keep leases (store.Leases) and be shared by every node.
type Cluster struct {
	// Node is this node's id, unique in the cluster.
	Node string
	// URL is this node's own public URL (mafia serve --node-url; empty:
	// none given): the lists of tables and a table's API name each table
	// the node runs as its own (wire.Lobby.Owner), so that a client or a
	// load balancer reaches the owner directly, and the relay is only the
	// fallback.
	URL string
	// TTL is a lease's time (default 5 s): the node renews each of its
	// leases every TTL/3, and the others take a table over once its lease
	// has run out, so a dead node's tables wait about TTL.
	TTL time.Duration
	// Scan is how often the node looks for leases that ran out (default
	// 1 s).
	Scan time.Duration
	// Elsewhere serves a request for a table whose lease another node
	// holds: it relays the WebSocket, or passes the request on, to that
	// node (package cluster). client is the client's address as this
	// node decided it. nil: such a request is refused table_moving.
	Elsewhere func(w http.ResponseWriter, r *http.Request, node, client string)
	// Live reports whether a node is alive (heard of lately); nil: every
	// node is. A request for a table held by a node that is gone is
	// refused table_moving at once, instead of waiting for it.
	Live func(node string) bool
	// Relayed reports whether another node passed r on already: it is then
	// served here or refused, never passed on again (nil: never).
	Relayed func(r *http.Request) bool
	// Free tells the other nodes that a table's lease has been let go, so
	// that one takes it at once (nil: they find it at their next scan).
	Free func(table string)
	// Lobby gathers the lobby rows of every node, this one's included
	// (nil: this node's own).
	Lobby func(ctx context.Context) ([]wire.Lobby, error)
}

// ownership is what a clustered server keeps of its leases.
type ownership struct {
	cfg    Cluster
	leases store.Leases
	// held are the leases of the tables this node runs (under Server.mu);
	// handing are the tables being handed over by a drain.
	held    map[string]store.Lease
	handing map[string]bool
	// locks serialise the taking of one table (own), by table.
	locks map[string]*tableLock
	nudge chan struct{}
	// letting counts the leases being let go after their rooms stopped.
	letting sync.WaitGroup
	// renewing is held by a renewal round, and by each letting go of a
	// lease: a lease let go during a round is let go after it, so that the
	// round's renewal never undoes it.
	renewing sync.Mutex
}

type tableLock struct {
	mu sync.Mutex
	n  int
}

// newOwnership checks a Cluster and fills its defaults.
func newOwnership(c Cluster, ls store.Leases) (*ownership, error) {
	if c.Node == "" {
		return nil, errors.New("server: a cluster node needs an id")
	}
	if c.TTL <= 0 {
		c.TTL = 5 * time.Second
	}
	if c.Scan <= 0 {
		c.Scan = time.Second
	}
	return &ownership{cfg: c, leases: ls, held: map[string]store.Lease{}, handing: map[string]bool{},
		locks: map[string]*tableLock{}, nudge: make(chan struct{}, 1)}, nil
}

// clustered reports whether the server is a node of a cluster.
func (s *Server) clustered() bool { return s.own != nil }

// Owned lists the tables this node holds the leases of (cluster.Owners).
func (s *Server) Owned() []string {
	if s.own == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.own.held))
	for id := range s.own.held {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// Nudge makes the node look for tables to take over now (another node
// let one go: cluster.Config.OnFree).
func (s *Server) Nudge() {
	if s.own == nil {
		return
	}
	select {
	case s.own.nudge <- struct{}{}:
	default:
	}
}

// lockTable serialises taking table id; the returned func unlocks.
func (s *Server) lockTable(id string) func() {
	s.mu.Lock()
	l := s.own.locks[id]
	if l == nil {
		l = &tableLock{}
		s.own.locks[id] = l
	}
	l.n++
	s.mu.Unlock()
	l.mu.Lock()
	return func() {
		l.mu.Unlock()
		s.mu.Lock()
		if l.n--; l.n == 0 {
			delete(s.own.locks, id)
		}
		s.mu.Unlock()
	}
}

// running is the table's room on this node, if it runs here.
func (s *Server) running(id string) *room.Room {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rooms[id]
}

// takesTables reports whether the node may take tables over now: it has
// resumed, and neither drains nor shuts down.
func (s *Server) takesTables() bool {
	return s.ready.Load() && !s.draining.Load() && !s.closing.Load()
}

// take runs table id on this node under its lease: it acquires the lease
// (a *store.HeldError when another node holds it), reads the table and
// resumes its room with the lease's token as the fence of every write.
// lastAlive is when the table's last owner was last known alive (zero: a
// full step). A table that has ended, or whose lobby expired, is not
// resumed unless asked for (why "demand": its result is being read): its
// lease is let go again and take returns nil.
func (s *Server) take(ctx context.Context, id, why string, lastAlive time.Time) (*room.Room, error) {
	unlock := s.lockTable(id)
	defer unlock()
	if r := s.running(id); r != nil {
		return r, nil
	}
	l, err := s.own.leases.Acquire(ctx, id, s.own.cfg.Node, s.own.cfg.TTL)
	if err != nil {
		return nil, err
	}
	st, err := s.read(ctx, id)
	if err == nil && why != "demand" && st.table.Status != store.StatusLobby && st.table.Status != store.StatusPlaying {
		s.release(l)
		return nil, nil
	}
	var r *room.Room
	if err == nil {
		r, err = s.resumeFenced(st, lastAlive, l.Token)
	}
	if err != nil {
		s.release(l)
		if errors.Is(err, store.ErrDamaged) {
			s.setAside(ctx, id, err)
		}
		return nil, err
	}
	s.mu.Lock()
	s.own.held[id] = l
	s.rooms[id] = r
	s.mu.Unlock()
	s.metrics.rooms.Inc()
	s.metrics.leasesTaken.WithLabelValues(why).Inc()
	if why != "demand" && r.Lobby().Status == string(store.StatusPlaying) {
		s.metrics.games.Inc()
	}
	if !lastAlive.IsZero() && why == "takeover" {
		s.metrics.unowned.Observe(s.cfg.Clock.Now().Sub(lastAlive).Seconds())
	}
	s.log.Info("table taken", "table", id, "why", why, "token", l.Token)
	return r, nil
}

// release gives a lease up at once (the table is free), logging a failure
// (the lease then runs out by itself).
func (s *Server) release(l store.Lease) {
	s.own.renewing.Lock()
	defer s.own.renewing.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.own.leases.Release(ctx, l); err != nil {
		s.log.Warn("release lease", "table", l.Table, "err", err)
	}
}

// letGo makes a live table's lease run out now, keeping its token, so
// that another node takes the table over at its next scan (or at once,
// told through Cluster.Free); its room here has stopped.
func (s *Server) letGo(l store.Lease) {
	s.own.renewing.Lock()
	defer s.own.renewing.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// The shortest lease the stores keep: one microsecond.
	if _, err := s.own.leases.Renew(ctx, l, time.Microsecond); err != nil && !errors.Is(err, store.ErrLeaseLost) {
		s.log.Warn("let a lease go", "table", l.Table, "err", err)
		return
	}
	if s.own.cfg.Free != nil {
		s.own.cfg.Free(l.Table)
	}
}

// stopped is told that a room stopped (room.Config.OnStop): a table this
// node still holds is let go, for good if it has ended (Release) or for
// another node to take over if it is still live (letGo); a table handed
// over by a drain or lost to another node is not.
func (s *Server) stopped(id string, status string) {
	s.mu.Lock()
	l, held := s.own.held[id]
	handing := s.own.handing[id]
	delete(s.own.held, id)
	delete(s.own.handing, id)
	s.mu.Unlock()
	if !held || handing {
		return
	}
	s.own.letting.Add(1)
	go func() {
		defer s.own.letting.Done()
		if status == string(store.StatusLobby) || status == string(store.StatusPlaying) {
			s.letGo(l)
		} else {
			s.release(l)
		}
	}()
}

// lost is told that a room's write was refused by its fence (room.Config.
// Lost): another node holds the table now; the room stops by itself.
func (s *Server) lost(id, why string) {
	s.mu.Lock()
	_, held := s.own.held[id]
	delete(s.own.held, id)
	s.mu.Unlock()
	if held {
		s.metrics.leasesLost.WithLabelValues(why).Inc()
		s.log.Warn("table lost to another node", "table", id, "why", why)
	}
}

// renewLeases renews every lease the node holds, every TTL/3, until the
// server stops; a lease found lost stops its room (its clients reconnect
// to the new owner).
func (s *Server) renewLeases() {
	defer s.wg.Done()
	t := time.NewTicker(s.own.cfg.TTL / 3)
	defer t.Stop()
	for {
		select {
		case <-t.C:
		case <-s.stop:
			return
		}
		s.own.renewing.Lock()
		s.mu.Lock()
		ls := make([]store.Lease, 0, len(s.own.held))
		for _, l := range s.own.held {
			ls = append(ls, l)
		}
		s.mu.Unlock()
		s.renewRound(ls)
		s.own.renewing.Unlock()
	}
}

// renewBatch is how many leases one write renews.
const renewBatch = 1000

// renewRound renews ls, renewBatch at a time (store.Leases.RenewAll: one
// round trip each), and moves the rooms of the leases found lost.
func (s *Server) renewRound(ls []store.Lease) {
	for len(ls) > 0 {
		batch := ls[:min(len(ls), renewBatch)]
		ls = ls[len(batch):]
		ctx, cancel := context.WithTimeout(context.Background(), s.own.cfg.TTL/3)
		got, err := s.own.leases.RenewAll(ctx, batch, s.own.cfg.TTL)
		cancel()
		if err != nil {
			// The store is failing: the leases may run out, and then the
			// next round says which were lost.
			s.log.Warn("renew leases", "leases", len(batch), "err", err)
			continue
		}
		renewed := make(map[string]store.Lease, len(got))
		for _, l := range got {
			renewed[l.Table] = l
		}
		for _, l := range batch {
			nl, ok := renewed[l.Table]
			if !ok {
				s.lost(l.Table, "renew")
				if r := s.running(l.Table); r != nil {
					go r.Move()
				}
				continue
			}
			s.keepRenewed(nl)
		}
	}
}

// keepRenewed records a renewed lease, if the node still holds the table
// with that token: a table let go or lost meanwhile stays let go (its
// entry is not made again, to be renewed for ever with no room).
func (s *Server) keepRenewed(nl store.Lease) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cur, ok := s.own.held[nl.Table]; ok && cur.Token == nl.Token {
		s.own.held[nl.Table] = nl
	}
}

// scanLeases takes over the tables whose leases ran out, every Scan and
// whenever nudged, until the server stops.
func (s *Server) scanLeases() {
	defer s.wg.Done()
	t := time.NewTicker(s.own.cfg.Scan)
	defer t.Stop()
	for {
		select {
		case <-t.C:
		case <-s.own.nudge:
		case <-s.stop:
			return
		}
		if !s.takesTables() {
			continue
		}
		s.takeOverExpired()
	}
}

// takeOverExpired takes the tables whose leases ran out, in an order of
// its own (the nodes racing for them do not all start with the same).
func (s *Server) takeOverExpired() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ls, err := s.own.leases.Expired(ctx, 64)
	if err != nil {
		s.log.Warn("look for expired leases", "err", err)
		return
	}
	rand.Shuffle(len(ls), func(i, j int) { ls[i], ls[j] = ls[j], ls[i] })
	for _, l := range ls {
		if s.closing.Load() || s.draining.Load() {
			return
		}
		if l.Node == s.own.cfg.Node && s.running(l.Table) != nil {
			// This node's own lease ran out (the store was slow): renew it
			// while nobody has taken it (the renewal loop says otherwise).
			if nl, err := s.own.leases.Renew(ctx, l, s.own.cfg.TTL); err == nil {
				s.keepRenewed(nl)
			}
			continue
		}
		_, err := s.take(ctx, l.Table, "takeover", l.Expires.Add(-s.own.cfg.TTL))
		var held *store.HeldError
		switch {
		case err == nil, errors.As(err, &held), errors.Is(err, store.ErrNotFound):
		default:
			s.log.Warn("take a table over", "table", l.Table, "err", err)
		}
	}
}

// resumeOwned brings back, on a node's start, every live table no other
// node holds: the tables of nodes that died, and this node's own from
// before its restart (let go first, so that its new room writes with a new
// token, never the old one).
func (s *Server) resumeOwned(ctx context.Context, ids []string, heartbeat time.Time) int {
	n := 0
	for _, id := range ids {
		last := heartbeat
		if old, err := s.own.leases.Lease(ctx, id); err == nil {
			last = old.Expires.Add(-s.own.cfg.TTL)
			if old.Node == s.own.cfg.Node {
				s.release(old)
			}
		}
		r, err := s.take(ctx, id, "resume", last)
		var held *store.HeldError
		switch {
		case errors.As(err, &held), r == nil && err == nil, errors.Is(err, store.ErrNotFound):
		case err != nil:
			s.log.Error("resume table", "table", id, "err", err)
		default:
			n++
		}
	}
	return n
}

// holder is the node that holds table id's live lease, if another node
// does ("" when none does, or this one).
func (s *Server) holder(ctx context.Context, id string) (string, error) {
	l, err := s.own.leases.Lease(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return "", nil
	case err != nil:
		return "", err
	}
	if l.Node == s.own.cfg.Node {
		return "", nil
	}
	// Whether it ran out is the database's to say: Acquire refuses a live
	// one. A lease that ran out is nobody's; take says which.
	return l.Node, nil
}

// located serves a request for one table ({id}) where the table is: here
// if it runs here (or nobody holds it, and this node takes it), else on
// the node that holds its lease (Cluster.Elsewhere).
func (s *Server) located(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.own == nil || s.running(r.PathValue("id")) != nil {
			h(w, r)
			return
		}
		node, err := s.holder(r.Context(), r.PathValue("id"))
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if node == "" {
			h(w, r) // s.room takes it (or refuses while draining)
			return
		}
		if s.own.cfg.Elsewhere == nil || (s.own.cfg.Relayed != nil && s.own.cfg.Relayed(r)) ||
			(s.own.cfg.Live != nil && !s.own.cfg.Live(node)) {
			// Passed on once already, or held by a node that is gone (its
			// lease runs out within TTL, and a node takes the table over):
			// the client tries again in a moment.
			s.moving(w, r)
			return
		}
		s.own.cfg.Elsewhere(w, r, node, s.guard.ClientAddr(r).String())
	}
}

// moving refuses a request for a table between two owners: 503
// table_moving, to be tried again in a second.
func (s *Server) moving(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Retry-After", "1")
	s.fail(w, r, &engine.Error{Code: CodeTableMoving})
}

// clusterRoom is s.room for a clustered server: a table that does not run
// here is taken (its lease acquired), unless the node drains or stops.
func (s *Server) clusterRoom(ctx context.Context, id string) (*room.Room, error) {
	if s.closing.Load() || s.draining.Load() {
		return nil, &engine.Error{Code: CodeTableMoving}
	}
	r, err := s.take(ctx, id, "demand", time.Time{})
	var held *store.HeldError
	if errors.As(err, &held) {
		return nil, &engine.Error{Code: CodeTableMoving}
	}
	return r, err
}

// Handover hands every live table of a draining node to the others: each
// room is stopped (its clients are closed 1012 table_moved and reconnect,
// through any node, with since), its lease is let go, and the other nodes
// are told. It waits until every table handed over runs on another node,
// or ctx ends (its error). Call it after Drain.
func (s *Server) Handover(ctx context.Context) error {
	if s.own == nil {
		return nil
	}
	type handed struct {
		r *room.Room
		l store.Lease
	}
	s.mu.Lock()
	var todo []handed
	for id, r := range s.rooms {
		if st := r.Lobby().Status; st == string(store.StatusLobby) || st == string(store.StatusPlaying) {
			if l, ok := s.own.held[id]; ok {
				s.own.handing[id] = true
				todo = append(todo, handed{r, l})
			}
		}
	}
	s.mu.Unlock()
	for _, h := range todo {
		h.r.Move() // its writes are committed when it returns
		s.letGo(h.l)
		s.metrics.leasesLost.WithLabelValues("handover").Inc()
	}
	s.log.Info("handed tables over", "tables", len(todo))
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for _, h := range todo {
		for {
			cur, err := s.own.leases.Lease(ctx, h.l.Table)
			if err == nil && cur.Token != h.l.Token || errors.Is(err, store.ErrNotFound) {
				break
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-t.C:
			}
		}
	}
	return nil
}

// owned is l as this node gives it out: in a cluster, with this node as
// the table's owner (Cluster.URL). l is a table this node runs.
func (s *Server) owned(l wire.Lobby) wire.Lobby {
	if s.own != nil {
		l.Owner = &wire.TableOwner{Node: s.own.cfg.Node, URL: s.own.cfg.URL}
	}
	return l
}
