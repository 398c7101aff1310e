package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"mafia/store"
)

// ErrClosed is returned by an append once Close has begun.
var ErrClosed = errors.New("store/postgres: closed")

// The group commit. Appends from every room go to a few writer goroutines,
// each holding one connection; a writer takes every append waiting (up to
// maxBatch) and sends them as one batch, which PostgreSQL runs in one
// transaction: one round trip and one commit (one flush of its log) for
// all of them, instead of one each. Each append in the batch is checked
// against its log's length in that transaction (append_step), and one
// refused (a conflict, a missing table) leaves the others alone. When the
// batch itself fails (a race at one place with another server, which the
// key refuses; a row that cannot be written), each of its appends is
// committed again alone, so that the failure is its own.
const (
	writers  = 4   // writer goroutines, each with a connection of its own at a time
	maxBatch = 256 // the most appends one commit takes
)

// gather is how long a writer may hold a small batch for more
// (store.Gather): a batch is a round trip and a commit (a flush of
// PostgreSQL's log) whatever it carries. It holds one only while appends
// arrive fast enough to bring another within Wait, and one writer at a
// time gathers (the others commit meanwhile).
var gather = store.Gather{Wait: 2 * time.Millisecond, Until: 16}

// appendReq is one append on its way through a writer.
type appendReq struct {
	table  string
	first  int
	kinds  []string
	jsons  []string
	clock  *store.Clock
	update *store.Table
	fenced bool  // made only while the table's lease carries token (store.Fenced)
	token  int64 // the fence's token

	store.Request // its place in the group commit, and its answer (Err)
}

func (db *DB) startWriters() {
	db.w = store.NewCommitter(writers, 4096, maxBatch, gather, ErrClosed, db.commit)
}

// stopWriters refuses new appends, lets the writers commit every one
// already queued, and waits for them to stop.
func (db *DB) stopWriters() { db.w.Close() }

// submit hands an append to the writers and waits for its answer
// (store.Committer.Submit).
func (db *DB) submit(ctx context.Context, r *appendReq) error { return db.w.Submit(ctx, r) }

// commitTimeout bounds one group commit: a database that does not answer
// fails the appends instead of holding every room for ever.
const commitTimeout = 30 * time.Second

// commit writes one batch of appends the writers have taken (live) and
// answers each (store.Committer lets their callers go).
func (db *DB) commit(live []*appendReq) {
	// In the order of their tables (each table's own in the order they
	// came): every batch then locks the leases' rows of fenced appends
	// (fence_ok) in one order, so that two batches and the takeovers they
	// hold up never wait for each other in a circle.
	// (strings.Compare is byte by byte, as COLLATE "C" is: RenewAll
	// locks the same rows in the same order.)
	slices.SortStableFunc(live, func(a, b *appendReq) int { return strings.Compare(a.table, b.table) })
	err := db.send(live)
	began, deadlocks, tries, unsure := time.Now(), 1, 1, false
	for err != nil {
		switch {
		case retryable(err) && deadlocks < maxAttempts:
			// Aborted by the database for a deadlock (or a serialization
			// failure): nothing of the batch was written; run it again.
			deadlocks++
			db.noteRetry("group commit", deadlocks, err)
		case away(err) && time.Since(began) < blipHold:
			// The database is away (a restart, a failover): wait for it,
			// the appends' callers with it, and commit the batch then.
			// Should the session have been lost after the batch was sent,
			// it may have committed: each append then refused as a
			// conflict is checked against what the log holds (unsure).
			tries++
			unsure = unsure || !pgconn.SafeToRetry(err)
			db.noteHealth(err)
			db.noteAway("group commit", tries, err)
			time.Sleep(awayWait(tries))
		default:
			goto done
		}
		for _, r := range live {
			r.Err = nil
		}
		err = db.send(live)
	}
done:
	if err == nil && unsure {
		db.settleUnsure(live)
	}
	if err != nil && len(live) > 1 {
		// The transaction failed as a whole: commit each alone, so that
		// what failed it fails only its own append.
		committed := false
		for _, r := range live {
			r.Err = nil
			committed = db.send([]*appendReq{r}) == nil || committed
		}
		if committed {
			err = nil
		}
	}
	db.noteHealth(err)
}

// send commits appends in one transaction and sets each one's answer; it
// returns what failed the transaction, if anything did.
func (db *DB) send(live []*appendReq) error {
	ctx, cancel := context.WithTimeout(context.Background(), commitTimeout)
	defer cancel()
	b := &pgx.Batch{}
	for _, r := range live {
		args := []any{r.table, r.first, r.kinds, r.jsons, false, 0, nil, int64(0), false, false, "", "", "", []byte(nil), int64(0),
			r.fenced, r.token}
		if c := r.clock; c != nil {
			cl := saveClockArgs(r.table, *c)
			args[4], args[5], args[6], args[7], args[8] = true, cl[1], cl[2], cl[3], cl[4]
		}
		if t := r.update; t != nil {
			up := updateTableArgs(*t)
			args[9], args[10], args[11], args[12], args[13], args[14] = true, up[0], up[1], up[2], up[3], up[4]
		}
		b.Queue(`SELECT append_step($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`, args...)
	}
	began := time.Now()
	br := db.pool.SendBatch(ctx, b)
	codes := make([]*int, len(live)) // nil: refused by its fence
	var err error
	for i := range live {
		if err = br.QueryRow().Scan(&codes[i]); err != nil {
			break
		}
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, context.DeadlineExceeded) {
		// The store's own bound, not a caller's: a failure of the store.
		err = fmt.Errorf("the database did not commit within %v (%v)", commitTimeout, err)
	}
	if err != nil {
		err = fmt.Errorf("store/postgres: append: %w", asStoreError(err))
		for _, r := range live {
			r.Err = err
		}
		return err
	}
	db.commits.Add(1)
	db.writes.Add(int64(len(live)))
	db.commitNano.Add(int64(time.Since(began)))
	for i, r := range live {
		if codes[i] == nil {
			r.Err = fmt.Errorf("store/postgres: append to %q: %w", r.table, fenced(r.table, r.token))
			continue
		}
		switch c := *codes[i]; {
		case c == refusedUnfenced:
			r.Err = fmt.Errorf("store/postgres: append to %q: table %q: %w", r.table, r.table, store.ErrUnfenced)
		case c == -1:
			r.Err = fmt.Errorf("store/postgres: append to %q: %w", r.table, store.ErrNotFound)
		case c < -1:
			r.Err = fmt.Errorf("store/postgres: append to %q at %d, but the log has %d events: %w",
				r.table, r.first, -2-c, store.ErrConflict)
		}
	}
	return nil
}

// settleUnsure answers as committed each append of a batch tried again
// after its session was lost, that the retry refused as a conflict but
// whose events the log holds, byte for byte, where it asked them to be:
// the lost try had committed them.
func (db *DB) settleUnsure(live []*appendReq) {
	ctx, cancel := context.WithTimeout(context.Background(), commitTimeout)
	defer cancel()
	for _, r := range live {
		if !errors.Is(r.Err, store.ErrConflict) {
			continue
		}
		rows, err := db.pool.Query(ctx, `SELECT json::text FROM events WHERE table_id = $1 AND seq >= $2 AND seq < $3 ORDER BY seq`,
			r.table, r.first, r.first+len(r.jsons))
		if err != nil {
			continue
		}
		got, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err == nil && slices.Equal(got, r.jsons) {
			r.Err = nil
		}
	}
}
