package storetest

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"mafia/store"
	"mafia/store/internal/fence"
)

// RunEventFences runs the contract of the events' fencing tokens
// (store.EventFences) on one store, with two node names standing for two
// nodes: an event remembers the token of the fence it was written under (0
// without one), so that a takeover shows in the log as one step up from
// the old owner's token to the new one's, and a refused write leaves no
// trace.
func RunEventFences(t *testing.T, open Open) {
	for _, c := range []struct {
		name string
		run  func(t *testing.T, open Open)
	}{
		{"UnfencedWritesAreZero", unfencedZero},
		{"ATakeoverAfterTheLeaseRanOutIsOneStepUp", func(t *testing.T, open Open) { stepUp(t, open, false) }},
		{"ATakeoverAfterAReleaseIsOneStepUp", func(t *testing.T, open Open) { stepUp(t, open, true) }},
		{"ARewriteStoresItsFenceForTheRewrittenEvents", rewriteFence},
		{"ARefusedWriteStoresNothing", refusedStoresNothing},
		{"ATableWithNoEventsHasNoFences", noEventsNoFences},
		{"TheFencesOfAMissingTableAreNotFound", fencesMissing},
		{"ANodeFencedMidAppendsLeavesItsEventsThenTheNewOwners", func(t *testing.T, open Open) {
			db := open(t)
			twoNodes(t, db, db)
		}},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t, open) })
	}
}

// RunEventFencesShared runs what two stores on one database (two nodes)
// show of the events' tokens: node A appends as fast as it can under its
// lease, which it does not renew; node B takes the table over once the
// lease has run out and appends; A goes on until it is refused. The log's
// tokens are then A's and B's, in that order, never mixed: no event of two
// owners at once.
func RunEventFencesShared(t *testing.T, open OpenTwo) {
	t.Run("ALogWrittenByTwoNodesChangesOwnerOnce", func(t *testing.T) {
		a, b := open(t)
		twoNodes(t, a, b)
	})
}

// fencesOf is the store's EventFences, or the test fails.
func fencesOf(t *testing.T, db store.Store) store.EventFences {
	t.Helper()
	f, ok := db.(store.EventFences)
	if !ok {
		t.Fatalf("%T keeps no events' fences", db)
	}
	return f
}

// tokens returns the fencing tokens of table's events, or fails the test.
func tokens(t *testing.T, db store.Store, table string) []int64 {
	t.Helper()
	got, err := fencesOf(t, db).EventFences(bg, table)
	if err != nil {
		t.Fatalf("the fences of %s: %v", table, err)
	}
	if n := len(events(t, db, table)); len(got) != n {
		t.Fatalf("the fences of %s: %d for %d events", table, len(got), n)
	}
	return got
}

// repeat is n times token.
func repeat(token int64, n int) []int64 { return slices.Repeat([]int64{token}, n) }

// owners says that tokens were written by the owners in order, no one of
// them twice: tokens never decrease (the check that proves it), and it
// returns the distinct tokens.
func owners(t *testing.T, tokens []int64) []int64 {
	t.Helper()
	if !slices.IsSorted(tokens) {
		t.Errorf("the tokens decrease somewhere (an event of an old owner after a new one's): %v", tokens)
	}
	return slices.Compact(slices.Clone(tokens))
}

func unfencedZero(t *testing.T, open Open) {
	db := open(t)
	ls := leases(t, db)
	log, _ := BotGame(t, 7)
	CreateTable(t, db, "x")
	CreateTable(t, db, "y")
	// A fence of another table is no fence of this one.
	y := acquire(t, ls, "y", "node-a", long)
	other := fence.With(bg, "y", y.Token)
	c := store.Clock{Step: 1, Left: time.Second, Paused: true}
	tb := store.Table{ID: "x", Kind: store.KindOnline, Status: store.StatusPlaying}
	if err := db.AppendEvents(bg, "x", 0, log[:2]); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendEventsClock(other, "x", 2, log[2:3], c); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendEventsTable(bg, tb, 3, log[3:5], &c); err != nil {
		t.Fatal(err)
	}
	if err := db.RewriteEvents(other, "x", 4, log[4:6]); err != nil {
		t.Fatal(err)
	}
	if got := tokens(t, db, "x"); !slices.Equal(got, repeat(0, 6)) {
		t.Errorf("unfenced writes: %v, want six 0s", got)
	}
	// And the other table's own fenced append carries its token.
	if err := db.AppendEvents(other, "y", 0, log[:1]); err != nil {
		t.Fatal(err)
	}
	if got := tokens(t, db, "y"); !slices.Equal(got, []int64{y.Token}) {
		t.Errorf("y's fenced append: %v, want [%d]", got, y.Token)
	}
}

// stepUp: node A appends three events under its fence, by three kinds of
// append; the table passes to node B (A's lease runs out, or A releases
// it), whose two appends follow: [a a a b b], b > a.
func stepUp(t *testing.T, open Open, released bool) {
	db := open(t)
	ls := leases(t, db)
	log, _ := BotGame(t, 8)
	CreateTable(t, db, "x")
	ttl := short
	if released {
		ttl = long
	}
	a := acquire(t, ls, "x", "node-a", ttl)
	actx := fence.With(bg, "x", a.Token)
	c := store.Clock{Step: 2, Left: 3 * time.Second, Paused: true}
	tb := store.Table{ID: "x", Kind: store.KindOnline, Status: store.StatusPlaying}
	if err := db.AppendEvents(actx, "x", 0, log[:1]); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendEventsClock(actx, "x", 1, log[1:2], c); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendEventsTable(actx, tb, 2, log[2:3], &c); err != nil {
		t.Fatal(err)
	}
	var b store.Lease
	if released {
		if err := ls.Release(bg, a); err != nil {
			t.Fatal(err)
		}
		b = acquire(t, ls, "x", "node-b", long)
	} else {
		b = takeOver(t, ls, "x", "node-b")
	}
	bctx := fence.With(bg, "x", b.Token)
	if err := db.AppendEvents(bctx, "x", 3, log[3:4]); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendEventsClock(bctx, "x", 4, log[4:5], c); err != nil {
		t.Fatal(err)
	}
	got := tokens(t, db, "x")
	if want := slices.Concat(repeat(a.Token, 3), repeat(b.Token, 2)); !slices.Equal(got, want) {
		t.Errorf("the fences: %v, want %v", got, want)
	}
	if o := owners(t, got); len(o) != 2 || o[0] >= o[1] {
		t.Errorf("owners %v, want two, the new owner's token larger", o)
	}
}

// rewriteFence: a rewrite fenced with the holder's token stores that token
// for the events it writes, and leaves the ones before them as they were;
// one that only cuts the log leaves the rest alone.
func rewriteFence(t *testing.T, open Open) {
	db := open(t)
	ls := leases(t, db)
	log, _ := BotGame(t, 9)
	CreateTable(t, db, "x")
	a := acquire(t, ls, "x", "node-a", short)
	if err := db.AppendEvents(fence.With(bg, "x", a.Token), "x", 0, log[:4]); err != nil {
		t.Fatal(err)
	}
	b := takeOver(t, ls, "x", "node-b")
	bctx := fence.With(bg, "x", b.Token)
	if err := db.RewriteEvents(bctx, "x", 2, log[2:5]); err != nil {
		t.Fatal(err)
	}
	if got, want := tokens(t, db, "x"), slices.Concat(repeat(a.Token, 2), repeat(b.Token, 3)); !slices.Equal(got, want) {
		t.Errorf("after a rewrite from 2 under node-b's fence: %v, want %v", got, want)
	}
	if err := db.RewriteEvents(bctx, "x", 3, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := tokens(t, db, "x"), []int64{a.Token, a.Token, b.Token}; !slices.Equal(got, want) {
		t.Errorf("after the log is cut at 3: %v, want %v", got, want)
	}
	// The whole log rewritten: every event the rewriter's.
	if err := db.RewriteEvents(bctx, "x", 0, log[:4]); err != nil {
		t.Fatal(err)
	}
	if got := tokens(t, db, "x"); !slices.Equal(got, repeat(b.Token, 4)) {
		t.Errorf("after a rewrite of the whole log: %v, want four %d", got, b.Token)
	}
}

// refusedStoresNothing: a write refused (a stale token, an append at the
// wrong place, a rewrite beyond the log) leaves the events' tokens as they
// were.
func refusedStoresNothing(t *testing.T, open Open) {
	db := open(t)
	ls := leases(t, db)
	log, _ := BotGame(t, 10)
	CreateTable(t, db, "x")
	a := acquire(t, ls, "x", "node-a", short)
	actx := fence.With(bg, "x", a.Token)
	if err := db.AppendEvents(actx, "x", 0, log[:2]); err != nil {
		t.Fatal(err)
	}
	b := takeOver(t, ls, "x", "node-b")
	bctx := fence.With(bg, "x", b.Token)
	if err := db.AppendEvents(bctx, "x", 2, log[2:3]); err != nil {
		t.Fatal(err)
	}
	want := []int64{a.Token, a.Token, b.Token}
	c := store.Clock{Step: 1, Left: time.Second, Paused: true}
	tb := store.Table{ID: "x", Kind: store.KindOnline, Status: store.StatusPlaying}
	for name, w := range map[string]func() error{
		"a stale AppendEvents":      func() error { return db.AppendEvents(actx, "x", 3, log[3:4]) },
		"a stale AppendEventsClock": func() error { return db.AppendEventsClock(actx, "x", 3, log[3:4], c) },
		"a stale AppendEventsTable": func() error { return db.AppendEventsTable(actx, tb, 3, log[3:4], &c) },
		"a stale RewriteEvents":     func() error { return db.RewriteEvents(actx, "x", 1, log[1:4]) },
		"a stale cut of the log":    func() error { return db.RewriteEvents(actx, "x", 1, nil) },
		"an append at the wrong place": func() error {
			if err := db.AppendEvents(bctx, "x", 2, log[2:4]); !errors.Is(err, store.ErrConflict) {
				return fmt.Errorf("%v, want ErrConflict", err)
			}
			return store.ErrFenced // refused, as the others
		},
		"a rewrite beyond the log": func() error {
			if err := db.RewriteEvents(bctx, "x", 4, log[4:5]); !errors.Is(err, store.ErrConflict) {
				return fmt.Errorf("%v, want ErrConflict", err)
			}
			return store.ErrFenced
		},
	} {
		if err := w(); !errors.Is(err, store.ErrFenced) {
			t.Errorf("%s: %v, want it refused", name, err)
		}
		if got := tokens(t, db, "x"); !slices.Equal(got, want) {
			t.Errorf("after %s: %v, want %v", name, got, want)
		}
	}
}

func noEventsNoFences(t *testing.T, open Open) {
	db := open(t)
	log, _ := BotGame(t, 11)
	CreateTable(t, db, "x")
	if got, err := fencesOf(t, db).EventFences(bg, "x"); err != nil || len(got) != 0 {
		t.Errorf("a table with no events: %v, %v; want none", got, err)
	}
	// And one whose log was cut to nothing.
	if err := db.AppendEvents(bg, "x", 0, log[:3]); err != nil {
		t.Fatal(err)
	}
	if err := db.RewriteEvents(bg, "x", 0, nil); err != nil {
		t.Fatal(err)
	}
	if got, err := fencesOf(t, db).EventFences(bg, "x"); err != nil || len(got) != 0 {
		t.Errorf("a log cut to nothing: %v, %v; want none", got, err)
	}
}

func fencesMissing(t *testing.T, open Open) {
	db := open(t)
	if got, err := fencesOf(t, db).EventFences(bg, "nowhere"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the fences of a missing table: %v, %v; want ErrNotFound", got, err)
	}
}

// twoNodes: node A (store a) appends one event at a time under a lease it
// never renews, until it is refused; node B (store b) waits until the
// database says A's lease ran out, takes the table over, reads the log and
// appends. A's next append after the takeover is fenced (the fence is
// checked before the log's length). The log is A's events, then B's: two
// owners, one step up, and exactly the appends A was told were committed
// before B's. (A has made a few appends before B begins to take over, and
// goes on while B does: where A is stopped is the race's.)
func twoNodes(t *testing.T, a, b store.Store) {
	la, lb := leases(t, a), leases(t, b)
	log, _ := BotGame(t, 12)
	const (
		head = 3  // node-a's appends before node-b begins to take the table
		most = 20 // node-a's appends at most
	)
	if len(log) < most+3 {
		t.Fatalf("a game of %d events: too short for this test", len(log))
	}
	CreateTable(t, a, "x")
	ga := acquire(t, la, "x", "node-a", short)
	actx := fence.With(bg, "x", ga.Token)
	type result struct {
		committed int
		err       error
	}
	done := make(chan result, 1)
	began, took := make(chan struct{}), make(chan struct{})
	go func() {
		n := 0
		defer func() {
			if n < head {
				close(began) // failed early: the test reports it
			}
		}()
		for ; n < most; n++ {
			if err := a.AppendEvents(actx, "x", n, log[n:n+1]); err != nil {
				done <- result{n, err}
				return
			}
			if n+1 == head {
				close(began)
			}
		}
		// Done before node-b took over: once it has, node-a tries once
		// more at its end of the log.
		<-took
		done <- result{n, a.AppendEvents(actx, "x", n, log[n:n+1])}
	}()
	<-began // node-a has a head start, and goes on while node-b takes over
	gb := takeOver(t, lb, "x", "node-b")
	close(took)
	bctx := fence.With(bg, "x", gb.Token)
	n := len(events(t, b, "x"))
	if err := b.AppendEvents(bctx, "x", n, log[n:n+2]); err != nil {
		t.Fatalf("node-b's append at %d: %v", n, err)
	}
	r := <-done
	if !errors.Is(r.err, store.ErrFenced) {
		t.Errorf("node-a after the takeover: %v, want ErrFenced", r.err)
	}
	if r.committed != n {
		t.Errorf("node-a was told %d appends committed; the log had %d when node-b took it", r.committed, n)
	}
	got := tokens(t, b, "x")
	if want := slices.Concat(repeat(ga.Token, n), repeat(gb.Token, 2)); !slices.Equal(got, want) {
		t.Errorf("the fences: %v, want %v", got, want)
	}
	if o := owners(t, got); len(o) != 2 {
		t.Errorf("owners %v, want node-a's and node-b's", o)
	}
	if d := SameEvents(events(t, a, "x"), log[:n+2]); d != "" {
		t.Errorf("the log: %s", d)
	}
	t.Logf("node-a appended %d events before node-b took the table", n)
}
