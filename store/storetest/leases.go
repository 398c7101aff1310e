package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"mafia/engine"
	"mafia/store"
	"mafia/store/internal/fence"
)

// OpenTwo opens two stores on one fresh, empty database, as two nodes of a
// cluster would (both closed when t ends).
type OpenTwo func(t *testing.T) (a, b store.Store)

// RunLeases runs the contract of table leases and fencing (store.Leases,
// store.Fenced) on one store, with two node names standing for two
// nodes: a second holder refused, expiry then a takeover with a larger
// token, renewal after the loss refused, release, and every write of a
// table's state refused under a stale token while the new holder's
// succeed.
func RunLeases(t *testing.T, open Open) {
	for _, c := range []struct {
		name string
		run  func(t *testing.T, open Open)
	}{
		{"ASecondHolderIsRefusedWithTheHolder", secondHolder},
		{"TheHolderRenewsKeepingItsToken", holderRenews},
		{"AnExpiredLeaseIsTakenOverWithALargerToken", takeover},
		{"RenewAfterTheLossIsRefused", renewAfterLoss},
		{"RenewAllRenewsTheLeasesStillHeldAndLeavesOutTheLost", renewAll},
		{"ReleaseFreesTheTableAndFencesItsToken", release},
		{"ALeaseOfAMissingTableIsNotFound", leaseMissing},
		{"ExpiredListsTheLeasesThatRanOut", expiredList},
		{"AStaleTokenIsRefusedInEveryWrite", staleEveryWrite},
		{"AWriteOfALeasedTableWithoutAFenceIsRefused", unfencedEveryWrite},
		{"AFenceGuardsItsOwnTableOnly", fenceOwnTable},
		{"APausedHoldersAppendAfterATakeoverIsRefused", func(t *testing.T, open Open) {
			db := open(t)
			pausedHolder(t, db, db)
		}},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t, open) })
	}
}

// RunLeasesShared runs what only a database several stores share can show:
// two stores (two nodes) racing for the same table's lease, round after
// round, exactly one winning each; and a paused holder on one store whose
// append after the other's takeover is refused while the other's succeed.
func RunLeasesShared(t *testing.T, open OpenTwo) {
	t.Run("OfTwoNodesRacingForALeaseExactlyOneWins", func(t *testing.T) {
		a, b := open(t)
		race(t, a, b)
	})
	t.Run("APausedNodesAppendAfterATakeoverIsRefused", func(t *testing.T) {
		a, b := open(t)
		pausedHolder(t, a, b)
	})
	t.Run("TwoSurvivorsSplitADeadNodesTablesWithoutSharingOne", func(t *testing.T) {
		a, b := open(t)
		survivors(t, a, b)
	})
}

// survivors: a node that held 30 tables dies (its leases run out); two
// nodes, each on its own store, take them over at once, each going through
// what Expired lists and acquiring every table: each table is taken by
// exactly one of them, and each one's fenced append to its tables commits.
// (They go through the list from its two ends, so that they meet.)
func survivors(t *testing.T, a, b store.Store) {
	const tables = 30
	dead := leases(t, a)
	for i := range tables {
		id := fmt.Sprintf("t%02d", i)
		CreateTable(t, a, id)
		acquire(t, dead, id, "node-dead", short)
	}
	waitExpired(t, dead, fmt.Sprintf("t%02d", tables-1))
	log, _ := BotGame(t, 3)
	nodes := []struct {
		name string
		st   store.Store
	}{{"node-a", a}, {"node-b", b}}
	took := make([]map[string]store.Lease, len(nodes))
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, n := range nodes {
		took[i] = map[string]store.Lease{}
		wg.Go(func() {
			<-start
			ls := n.st.(store.Leases)
			ex, err := ls.Expired(bg, 0)
			if err != nil {
				errs[i] = err
				return
			}
			if i == 1 {
				slices.Reverse(ex) // the two meet in the middle of the list
			}
			for _, e := range ex {
				l, err := ls.Acquire(bg, e.Table, n.name, long)
				if errors.Is(err, store.ErrLeaseHeld) {
					continue // the other survivor was first
				}
				if err != nil {
					errs[i] = err
					return
				}
				took[i][e.Table] = l
				if err := n.st.AppendEvents(fence.With(bg, e.Table, l.Token), e.Table, 0, log[:1]); err != nil {
					errs[i] = fmt.Errorf("%s appends to %s: %w", n.name, e.Table, err)
					return
				}
			}
		})
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("%s: %v", nodes[i].name, err)
		}
	}
	for i := range tables {
		id := fmt.Sprintf("t%02d", i)
		_, inA := took[0][id]
		_, inB := took[1][id]
		if inA == inB {
			t.Errorf("%s: taken by node-a %v, by node-b %v; want exactly one", id, inA, inB)
		}
		if n := len(events(t, a, id)); n != 1 {
			t.Errorf("%s: %d events, want the one its new owner appended", id, n)
		}
	}
	t.Logf("node-a took %d tables, node-b %d", len(took[0]), len(took[1]))
}

// leases is db's store.Leases, or the test fails.
func leases(t *testing.T, db store.Store) store.Leases {
	t.Helper()
	l, ok := db.(store.Leases)
	if !ok {
		t.Fatalf("%T keeps no leases", db)
	}
	return l
}

// long is a ttl that no test outlives; short is one that has run out by the
// time the test looks again (waitExpired waits for it).
const (
	long  = time.Hour
	short = time.Millisecond
)

// acquire takes table's lease for node, or fails the test.
func acquire(t *testing.T, ls store.Leases, table, node string, ttl time.Duration) store.Lease {
	t.Helper()
	l, err := ls.Acquire(bg, table, node, ttl)
	if err != nil {
		t.Fatalf("%s acquires %s: %v", node, table, err)
	}
	if l.Table != table || l.Node != node || l.Token <= 0 {
		t.Fatalf("%s acquires %s: %+v", node, table, l)
	}
	return l
}

// waitExpired waits until the database's clock says the lease of table has
// run out (Expired lists it): not a timed assertion, a wait for the
// database's clock to pass a short ttl, bounded so that a store that never
// lets a lease run out fails instead of hanging.
func waitExpired(t *testing.T, ls store.Leases, table string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		ex, err := ls.Expired(bg, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range ex {
			if l.Table == table {
				return
			}
		}
	}
	t.Fatalf("the lease of %s never ran out", table)
}

// takeOver waits for table's lease to run out and takes it for node.
func takeOver(t *testing.T, ls store.Leases, table, node string) store.Lease {
	t.Helper()
	waitExpired(t, ls, table)
	return acquire(t, ls, table, node, long)
}

func secondHolder(t *testing.T, open Open) {
	db := open(t)
	ls := leases(t, db)
	CreateTable(t, db, "x")
	a := acquire(t, ls, "x", "node-a", long)
	_, err := ls.Acquire(bg, "x", "node-b", long)
	var held *store.HeldError
	if !errors.Is(err, store.ErrLeaseHeld) || !errors.As(err, &held) {
		t.Fatalf("a second node acquires a held lease: %v, want a HeldError", err)
	}
	if held.Lease.Node != "node-a" || held.Lease.Token != a.Token || !held.Lease.Expires.Equal(a.Expires) {
		t.Errorf("the refusal names %+v, want the holder's %+v", held.Lease, a)
	}
	got, err := ls.Lease(bg, "x")
	if err != nil || got.Node != "node-a" || got.Token != a.Token {
		t.Errorf("the lease: %+v, %v; want node-a's with token %d", got, err, a.Token)
	}
	if _, err := ls.Lease(bg, "nobody's"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the lease of a table nobody holds: %v, want ErrNotFound", err)
	}
}

func holderRenews(t *testing.T, open Open) {
	db := open(t)
	ls := leases(t, db)
	CreateTable(t, db, "x")
	a := acquire(t, ls, "x", "node-a", time.Minute)
	again := acquire(t, ls, "x", "node-a", long)
	if again.Token != a.Token || !again.Expires.After(a.Expires) {
		t.Errorf("the holder acquires again: %+v after %+v, want the same token, later", again, a)
	}
	r, err := ls.Renew(bg, a, 2*long)
	if err != nil || r.Token != a.Token || !r.Expires.After(again.Expires) {
		t.Errorf("renew: %+v, %v; want token %d, later than %v", r, err, a.Token, again.Expires)
	}
	for _, bad := range []time.Duration{0, -time.Second} {
		if _, err := ls.Acquire(bg, "x", "node-a", bad); err == nil {
			t.Errorf("a ttl of %v was taken", bad)
		}
	}
	if _, err := ls.Acquire(bg, "x", "", long); err == nil {
		t.Errorf("a lease for no node was taken")
	}
}

// renewAll: one call renews every lease its node still holds with its
// token, keeping the tokens, and leaves out one taken over, one released,
// one of another token and one of a missing table, changing none of them.
func renewAll(t *testing.T, open Open) {
	db := open(t)
	ls := leases(t, db)
	for _, id := range []string{"a", "b", "c", "d", "e"} {
		CreateTable(t, db, id)
	}
	a := acquire(t, ls, "a", "node-a", time.Minute)
	b := acquire(t, ls, "b", "node-a", time.Minute)
	c := acquire(t, ls, "c", "node-a", short)
	d := acquire(t, ls, "d", "node-a", long)
	e := acquire(t, ls, "e", "node-a", long)
	taken := takeOver(t, ls, "c", "node-b")
	if err := ls.Release(bg, d); err != nil {
		t.Fatal(err)
	}
	stale := e
	stale.Token--
	missing := store.Lease{Table: "nope", Node: "node-a", Token: a.Token}
	got, err := ls.RenewAll(bg, []store.Lease{a, b, c, d, stale, missing}, 2*long)
	if err != nil {
		t.Fatal(err)
	}
	renewed := map[string]store.Lease{}
	for _, l := range got {
		renewed[l.Table] = l
	}
	if len(got) != 2 || renewed["a"].Token != a.Token || renewed["b"].Token != b.Token ||
		!renewed["a"].Expires.After(a.Expires) || !renewed["b"].Expires.After(b.Expires) || renewed["a"].Node != "node-a" {
		t.Errorf("renewed %+v, want a's and b's, later, with their tokens", got)
	}
	if l, err := ls.Lease(bg, "c"); err != nil || l.Node != "node-b" || l.Token != taken.Token {
		t.Errorf("the lease taken over: %+v %v, want node-b's untouched", l, err)
	}
	if _, err := ls.Lease(bg, "d"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the released lease: %v, want still free", err)
	}
	if l, err := ls.Lease(bg, "e"); err != nil || !l.Expires.Equal(e.Expires) {
		t.Errorf("the lease of another token: %+v %v, want it unchanged", l, err)
	}
	if got, err := ls.RenewAll(bg, nil, long); err != nil || len(got) != 0 {
		t.Errorf("renewing none: %v %v", got, err)
	}
	if _, err := ls.RenewAll(bg, []store.Lease{a}, 0); err == nil {
		t.Error("a ttl of 0 was taken")
	}
}

func takeover(t *testing.T, open Open) {
	db := open(t)
	ls := leases(t, db)
	CreateTable(t, db, "x")
	CreateTable(t, db, "y")
	a := acquire(t, ls, "x", "node-a", short)
	other := acquire(t, ls, "y", "node-c", long) // a later token, of another table
	b := takeOver(t, ls, "x", "node-b")
	if b.Token <= a.Token || b.Token <= other.Token {
		t.Errorf("the new owner's token %d, after %d and %d: want a larger one", b.Token, a.Token, other.Token)
	}
	if _, err := ls.Acquire(bg, "x", "node-a", long); !errors.Is(err, store.ErrLeaseHeld) {
		t.Errorf("the old owner acquires again: %v, want ErrLeaseHeld", err)
	}
	// The same node whose lease ran out is a new owner too: its old token
	// (held by a paused part of it, say) must not write again.
	c := acquire(t, ls, "y", "node-c", long)
	if c.Token != other.Token {
		t.Errorf("node-c renews its live lease: token %d, want %d", c.Token, other.Token)
	}
	a2 := acquire(t, ls, "x", "node-b", short)
	waitExpired(t, ls, "x")
	b2 := acquire(t, ls, "x", "node-b", long)
	if b2.Token <= a2.Token {
		t.Errorf("node-b takes its own run-out lease again: token %d after %d, want a larger one", b2.Token, a2.Token)
	}
}

func renewAfterLoss(t *testing.T, open Open) {
	db := open(t)
	ls := leases(t, db)
	CreateTable(t, db, "x")
	a := acquire(t, ls, "x", "node-a", short)
	waitExpired(t, ls, "x")
	// Run out but taken by nobody: still the holder with that token.
	a, err := ls.Renew(bg, a, short)
	if err != nil {
		t.Fatalf("renew a run-out lease nobody took: %v", err)
	}
	b := takeOver(t, ls, "x", "node-b")
	if _, err := ls.Renew(bg, a, long); !errors.Is(err, store.ErrLeaseLost) {
		t.Errorf("renew after the loss: %v, want ErrLeaseLost", err)
	}
	if got, _ := ls.Lease(bg, "x"); got.Node != "node-b" || got.Token != b.Token || !got.Expires.Equal(b.Expires) {
		t.Errorf("after the loser's renewal the lease is %+v, want %+v", got, b)
	}
	forged := b
	forged.Node = "node-a"
	if _, err := ls.Renew(bg, forged, long); !errors.Is(err, store.ErrLeaseLost) {
		t.Errorf("renew with the holder's token under another node: %v, want ErrLeaseLost", err)
	}
}

func release(t *testing.T, open Open) {
	db := open(t)
	ls := leases(t, db)
	CreateTable(t, db, "x")
	log, _ := BotGame(t, 4)
	a := acquire(t, ls, "x", "node-a", long)
	if err := db.AppendEvents(fence.With(bg, "x", a.Token), "x", 0, log[:2]); err != nil {
		t.Fatal(err)
	}
	stale := a
	stale.Token--
	if err := ls.Release(bg, stale); err != nil {
		t.Fatalf("release with another token: %v", err)
	}
	if got, err := ls.Lease(bg, "x"); err != nil || got.Token != a.Token {
		t.Fatalf("a release with another token let the lease go: %+v, %v", got, err)
	}
	if err := ls.Release(bg, a); err != nil {
		t.Fatal(err)
	}
	if _, err := ls.Lease(bg, "x"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the lease after its release: %v, want ErrNotFound", err)
	}
	if err := db.AppendEvents(fence.With(bg, "x", a.Token), "x", 2, log[2:3]); !errors.Is(err, store.ErrFenced) {
		t.Errorf("an append under a released lease's token: %v, want ErrFenced", err)
	}
	if _, err := ls.Renew(bg, a, long); !errors.Is(err, store.ErrLeaseLost) {
		t.Errorf("renew a released lease: %v, want ErrLeaseLost", err)
	}
	b := acquire(t, ls, "x", "node-b", long) // at once: no waiting for a ttl
	if b.Token <= a.Token {
		t.Errorf("the next owner's token %d after %d: want a larger one", b.Token, a.Token)
	}
	if err := ls.Release(bg, a); err != nil {
		t.Fatal(err)
	}
	if got, err := ls.Lease(bg, "x"); err != nil || got.Token != b.Token {
		t.Errorf("the old owner's second release took the new owner's lease: %+v, %v", got, err)
	}
}

func leaseMissing(t *testing.T, open Open) {
	db := open(t)
	if _, err := leases(t, db).Acquire(bg, "nowhere", "node-a", long); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("acquire the lease of a missing table: %v, want ErrNotFound", err)
	}
}

func expiredList(t *testing.T, open Open) {
	db := open(t)
	ls := leases(t, db)
	for _, id := range []string{"live", "out1", "out2", "out3"} {
		CreateTable(t, db, id)
	}
	acquire(t, ls, "live", "node-a", long)
	for _, id := range []string{"out1", "out2", "out3"} {
		acquire(t, ls, id, "node-a", short)
		waitExpired(t, ls, id) // so that they ran out in this order
	}
	ex, err := ls.Expired(bg, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range ex {
		got = append(got, l.Table)
		if l.Node != "node-a" {
			t.Errorf("an expired lease of %s names %q", l.Table, l.Node)
		}
	}
	if fmt.Sprint(got) != "[out1 out2 out3]" {
		t.Errorf("expired: %v, want [out1 out2 out3], the longest run out first", got)
	}
	if ex, err := ls.Expired(bg, 2); err != nil || len(ex) != 2 || ex[0].Table != "out1" {
		t.Errorf("expired, at most 2: %+v, %v", ex, err)
	}
}

// state is what every fenced write of a table changes.
type state struct {
	events int
	clock  store.Clock
	status store.Status
	seats  int
	chat   int
}

func stateOf(t *testing.T, db store.Store, id string) state {
	t.Helper()
	tb, seats, err := db.Table(bg, store.KindOnline, id)
	if err != nil {
		t.Fatal(err)
	}
	c, err := db.Clock(bg, id)
	if err != nil {
		t.Fatal(err)
	}
	s := state{events: len(events(t, db, id)), clock: c, status: tb.Status, seats: len(seats)}
	if ch, ok := db.(store.Chats); ok {
		lines, err := ch.Chat(bg, id, 0)
		if err != nil {
			t.Fatal(err)
		}
		s.chat = len(lines)
	}
	return s
}

// writes are every write of a table's state, each made at the log's length
// n (all but RewriteEvents append one event).
func writes(db store.Store, id string, log []engine.Event) map[string]func(ctx context.Context, n int) error {
	tb := store.Table{ID: id, Kind: store.KindOnline, Status: store.StatusEnded, Winner: "town"}
	c := store.Clock{Step: 3, Left: 7 * time.Second, Paused: true}
	w := map[string]func(ctx context.Context, n int) error{
		"AppendEvents": func(ctx context.Context, n int) error { return db.AppendEvents(ctx, id, n, log[n:n+1]) },
		"AppendEventsClock": func(ctx context.Context, n int) error {
			return db.AppendEventsClock(ctx, id, n, log[n:n+1], c)
		},
		"AppendEventsTable": func(ctx context.Context, n int) error {
			return db.AppendEventsTable(ctx, tb, n, log[n:n+1], &c)
		},
		"RewriteEvents": func(ctx context.Context, n int) error { return db.RewriteEvents(ctx, id, n-1, log[n-1:n+1]) },
		"UpdateTable":   func(ctx context.Context, n int) error { return db.UpdateTable(ctx, tb) },
		"SaveSeats": func(ctx context.Context, n int) error {
			return db.SaveSeats(ctx, id, []store.Seat{{Seat: 1, Name: "Nino"}, {Seat: 2, Name: "Gio", Bot: true}})
		},
		"SaveClock": func(ctx context.Context, n int) error { return db.SaveClock(ctx, id, c) },
	}
	if ch, ok := db.(store.Chats); ok {
		w["AppendChat"] = func(ctx context.Context, n int) error { return ch.AppendChat(ctx, id, chatLine(n)) }
	}
	return w
}

func staleEveryWrite(t *testing.T, open Open) {
	db := open(t)
	ls := leases(t, db)
	log, _ := BotGame(t, 6)
	names := []string{"AppendEvents", "AppendEventsClock", "AppendEventsTable", "RewriteEvents",
		"UpdateTable", "SaveSeats", "SaveClock", "AppendChat"}
	for _, name := range names {
		id := "t-" + name
		CreateTable(t, db, id)
		if err := db.AppendEvents(bg, id, 0, log[:2]); err != nil {
			t.Fatal(err)
		}
		a := acquire(t, ls, id, "node-a", short)
		waitExpired(t, ls, id)
		b := acquire(t, ls, id, "node-b", long)
		stale, ok := writes(store.Fenced(tableStore(t, db), id, a.Token), id, log)[name]
		if !ok {
			continue // a store without chat
		}
		before := stateOf(t, db, id)
		err := stale(bg, 2)
		if !errors.Is(err, store.ErrFenced) || !errors.Is(err, store.ErrConflict) {
			t.Errorf("%s under the lost lease's token: %v, want ErrFenced (ErrConflict)", name, err)
		}
		if after := stateOf(t, db, id); after != before {
			t.Errorf("%s refused changed the table: %+v, was %+v", name, after, before)
		}
		if err := writes(store.Fenced(tableStore(t, db), id, b.Token), id, log)[name](bg, 2); err != nil {
			t.Errorf("%s under the holder's token: %v", name, err)
		}
		if after := stateOf(t, db, id); after == before {
			t.Errorf("%s under the holder's token changed nothing", name)
		}
	}
	// No lease at all: a fenced write has nothing to match.
	CreateTable(t, db, "free")
	if err := db.AppendEvents(fence.With(bg, "free", 1), "free", 0, log[:1]); !errors.Is(err, store.ErrFenced) {
		t.Errorf("a fenced append to a table nobody leases: %v, want ErrFenced", err)
	}
}

// unfencedEveryWrite: on a store where leases are in use, every write of a
// leased table's state that carries no fence (a code path that forgot it)
// is refused with store.ErrUnfenced, and changes nothing; through the
// holder's store.Fenced handle it is made; a table no lease was taken of
// (an in-person game's) is written without a fence as ever.
func unfencedEveryWrite(t *testing.T, open Open) {
	db := open(t)
	ls := leases(t, db)
	log, _ := BotGame(t, 6)
	for _, name := range []string{"AppendEvents", "AppendEventsClock", "AppendEventsTable", "RewriteEvents",
		"UpdateTable", "SaveSeats", "SaveClock", "AppendChat"} {
		id := "u-" + name
		CreateTable(t, db, id)
		if err := db.AppendEvents(bg, id, 0, log[:2]); err != nil {
			t.Fatalf("%s: an append before the table is leased: %v", name, err)
		}
		a := acquire(t, ls, id, "node-a", long)
		bare, ok := writes(db, id, log)[name]
		if !ok {
			continue // a store without chat
		}
		before := stateOf(t, db, id)
		err := bare(bg, 2)
		if !errors.Is(err, store.ErrUnfenced) || !errors.Is(err, store.ErrConflict) {
			t.Errorf("%s of a leased table without a fence: %v, want ErrUnfenced (ErrConflict)", name, err)
		}
		if after := stateOf(t, db, id); after != before {
			t.Errorf("%s without a fence changed the table: %+v, was %+v", name, after, before)
		}
		if err := writes(store.Fenced(tableStore(t, db), id, a.Token), id, log)[name](bg, 2); err != nil {
			t.Errorf("%s through the holder's fenced handle: %v", name, err)
		}
	}
	CreateTable(t, db, "never-leased")
	if err := db.AppendEvents(bg, "never-leased", 0, log[:1]); err != nil {
		t.Errorf("an append without a fence to a table never leased: %v", err)
	}
}

// tableStore is db with its chat (store.TableStore), as store.Fenced wraps.
func tableStore(t *testing.T, db store.Store) store.TableStore {
	t.Helper()
	ts, ok := db.(store.TableStore)
	if !ok {
		t.Fatalf("%T keeps no chat pages", db)
	}
	return ts
}

func fenceOwnTable(t *testing.T, open Open) {
	db := open(t)
	ls := leases(t, db)
	log, _ := BotGame(t, 2)
	CreateTable(t, db, "x")
	CreateTable(t, db, "y")
	x := acquire(t, ls, "x", "node-a", long)
	y := acquire(t, ls, "y", "node-a", long)
	ctx := fence.With(fence.With(bg, "x", x.Token), "y", y.Token)
	if err := db.AppendEvents(ctx, "x", 0, log[:1]); err != nil {
		t.Errorf("x under its own fence among two: %v", err)
	}
	if err := db.AppendEvents(ctx, "y", 0, log[:1]); err != nil {
		t.Errorf("y under its own fence among two: %v", err)
	}
	CreateTable(t, db, "z")
	if err := db.AppendEvents(ctx, "z", 0, log[:1]); err != nil {
		t.Errorf("z, which the context fences not: %v", err)
	}
	if tok, ok := fence.Of(fence.With(ctx, "x", 99), "x"); !ok || tok != 99 {
		t.Errorf("the last fence set for x: %d, %v; want 99", tok, ok)
	}
}

// pausedHolder: node A (on store a) holds a table and appends; it is
// paused (stops renewing) until its lease runs out and node B (on store b)
// takes it over, reloads the log and plays on; then A comes back and tries
// to append what it had computed before the pause, and again after: each
// is refused, while B's appends succeed and the log holds B's events only.
func pausedHolder(t *testing.T, a, b store.Store) {
	la, lb := leases(t, a), leases(t, b)
	log, _ := BotGame(t, 9)
	CreateTable(t, a, "x")
	ga := acquire(t, la, "x", "node-a", short)
	actx := fence.With(bg, "x", ga.Token)
	if err := a.AppendEvents(actx, "x", 0, log[:3]); err != nil {
		t.Fatal(err)
	}
	// A is paused here.
	gb := takeOver(t, lb, "x", "node-b")
	n := len(events(t, b, "x"))
	bctx := fence.With(bg, "x", gb.Token)
	if err := b.AppendEvents(bctx, "x", n, log[n:n+2]); err != nil {
		t.Fatalf("the new holder's append: %v", err)
	}
	// A comes back: what it had ready, at the place it thinks is the end,
	// and at the real end too.
	for _, at := range []int{3, 5} {
		if err := a.AppendEvents(actx, "x", at, log[at:at+1]); !errors.Is(err, store.ErrFenced) {
			t.Errorf("the paused holder's append at %d: %v, want ErrFenced", at, err)
		}
	}
	if _, err := la.Renew(bg, ga, long); !errors.Is(err, store.ErrLeaseLost) {
		t.Errorf("the paused holder renews: %v, want ErrLeaseLost", err)
	}
	if err := b.AppendEventsClock(bctx, "x", 5, log[5:7], store.Clock{Step: 5, Left: time.Second, Paused: true}); err != nil {
		t.Fatalf("the new holder's next append: %v", err)
	}
	if d := SameEvents(events(t, a, "x"), log[:7]); d != "" {
		t.Errorf("the log: %s", d)
	}
}

// race: two nodes on two stores acquire one table's lease at once, round
// after round, the lease free (released) before even rounds and run out
// before odd ones; exactly one wins each round, the loser is told the
// winner, and each round's token is larger than the last.
func race(t *testing.T, a, b store.Store) {
	CreateTable(t, a, "x")
	nodes := []struct {
		name string
		ls   store.Leases
	}{{"node-a", leases(t, a)}, {"node-b", leases(t, b)}}
	var last int64
	wins := map[string]int{}
	for round := range 40 {
		var (
			wg    sync.WaitGroup
			got   [2]store.Lease
			errs  [2]error
			start = make(chan struct{})
		)
		for i, n := range nodes {
			wg.Go(func() {
				<-start
				got[i], errs[i] = n.ls.Acquire(bg, "x", n.name, long)
			})
		}
		close(start)
		wg.Wait()
		winner := -1
		for i, err := range errs {
			switch {
			case err == nil && winner >= 0:
				t.Fatalf("round %d: both nodes hold the lease: %+v and %+v", round, got[winner], got[i])
			case err == nil:
				winner = i
			case !errors.Is(err, store.ErrLeaseHeld):
				t.Fatalf("round %d: %s: %v, want ErrLeaseHeld", round, nodes[i].name, err)
			}
		}
		if winner < 0 {
			t.Fatalf("round %d: nobody won the lease: %v", round, errs)
		}
		var held *store.HeldError
		if loser := errs[1-winner]; errors.As(loser, &held) && (held.Lease.Node != nodes[winner].name || held.Lease.Token != got[winner].Token) {
			t.Errorf("round %d: the loser was told %+v, the winner has %+v", round, held.Lease, got[winner])
		}
		if got[winner].Token <= last {
			t.Fatalf("round %d: token %d after %d", round, got[winner].Token, last)
		}
		last = got[winner].Token
		wins[nodes[winner].name]++
		w := nodes[winner].ls
		if round%2 == 1 {
			if err := w.Release(bg, got[winner]); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if _, err := w.Renew(bg, got[winner], short); err != nil {
			t.Fatal(err)
		}
		waitExpired(t, w, "x")
	}
	t.Logf("wins: %v", wins)
}
