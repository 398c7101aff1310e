package sqlite

import (
	"context"
	"errors"
	"fmt"
	"mafia/store/storetest"
	"testing"
	"time"

	"mafia/engine"
	"mafia/store"
)

// chatLine is the i-th line of a test conversation.
func chatLine(i int) store.ChatLine {
	channels := []string{"town", "mafia", "dead"}
	return store.ChatLine{Channel: channels[i%3], Seat: i%10 + 1, Name: fmt.Sprintf("№%d Nino", i%10+1),
		Text: fmt.Sprintf("line %d: ჩემი აზრით", i), At: time.UnixMilli(1796000000000 + int64(i)*1500).UTC(),
		Log: i / 2, Round: i / 7, Phase: "speech"}
}

// sameChat reports how got differs from the lines want (with their Seq
// from first on), or "".
func sameChat(got []store.ChatLine, first int, want []store.ChatLine) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d lines, want %d", len(got), len(want))
	}
	for i, l := range want {
		l.Seq = first + i
		if got[i] != l {
			return fmt.Sprintf("line %d: %+v, want %+v", i, got[i], l)
		}
	}
	return ""
}

// TestChatIsKeptInOrderAndSurvivesReopening: lines come back in the order
// they were appended, with every field, after the file is closed and
// opened again; last gives the newest lines only, still in order.
func TestChatIsKeptInOrderAndSurvivesReopening(t *testing.T) {
	db, path := openTest(t)
	ctx := context.Background()
	storetest.CreateTable(t, db, "t1")
	storetest.CreateTable(t, db, "t2")
	var want []store.ChatLine
	for i := range 40 {
		l := chatLine(i)
		if err := db.AppendChat(ctx, "t1", l); err != nil {
			t.Fatal(err)
		}
		want = append(want, l)
		if i%4 == 0 {
			if err := db.AppendChat(ctx, "t2", chatLine(1000+i)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got, err := db.Chat(ctx, "t1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if d := sameChat(got, 0, want); d != "" {
		t.Fatal("all lines after reopening:", d)
	}
	got, err = db.Chat(ctx, "t1", 15)
	if err != nil {
		t.Fatal(err)
	}
	if d := sameChat(got, 25, want[25:]); d != "" {
		t.Fatal("the last 15:", d)
	}
	if got, _ := db.Chat(ctx, "t2", 0); len(got) != 10 {
		t.Fatalf("the other table: %d lines, want 10", len(got))
	}
	if got, err := db.Chat(ctx, "t2", 100); err != nil || len(got) != 10 {
		t.Fatalf("more asked than kept: %d lines, %v", len(got), err)
	}
}

// TestChatLinesInOneGroupCommitKeepTheirOrder: lines queued while the
// writer is busy are committed together, in the order they were queued,
// beside the events of the same batch.
func TestChatLinesInOneGroupCommitKeepTheirOrder(t *testing.T) {
	db, _ := openTest(t)
	ctx := context.Background()
	storetest.CreateTable(t, db, "t")
	release := holdWriter(t, db)
	var answers []<-chan error
	for i := range 5 {
		before := db.wr.Waiting()
		ch := make(chan error, 1)
		l := chatLine(i)
		go func() { ch <- db.AppendChat(ctx, "t", l) }()
		waitFor(t, func() bool { return db.wr.Waiting() == before+1 })
		answers = append(answers, ch)
	}
	evs := answers
	evs = append(evs, queue(t, ctx, db, "t", 0, []engine.Event{{Kind: engine.EvNightBegan, Round: 1}}))
	release()
	for i, ch := range evs {
		if err := <-ch; err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
	}
	if db.WriteStats().Commits > 2 {
		t.Fatalf("%d commits: the lines were not committed together", db.WriteStats().Commits)
	}
	got, err := db.Chat(ctx, "t", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []store.ChatLine{chatLine(0), chatLine(1), chatLine(2), chatLine(3), chatLine(4)}
	if d := sameChat(got, 0, want); d != "" {
		t.Fatal(d)
	}
}

// TestChatPastTheCapIsRefusedAndNothingElseFails: once a table keeps its
// cap of lines, the next is refused with store.ErrChatFull and not kept;
// the lines kept stay as they were, another table's lines and the events
// committed in the same batch are not refused, and the cap holds after
// reopening.
func TestChatPastTheCapIsRefusedAndNothingElseFails(t *testing.T) {
	db, path := openTest(t)
	db.chatCap = 6
	ctx := context.Background()
	storetest.CreateTable(t, db, "full")
	storetest.CreateTable(t, db, "other")
	var want []store.ChatLine
	for i := range 6 {
		if err := db.AppendChat(ctx, "full", chatLine(i)); err != nil {
			t.Fatal(err)
		}
		want = append(want, chatLine(i))
	}
	release := holdWriter(t, db)
	before := db.wr.Waiting()
	refused := make(chan error, 1)
	go func() { refused <- db.AppendChat(ctx, "full", chatLine(6)) }()
	waitFor(t, func() bool { return db.wr.Waiting() == before+1 })
	before++
	other := make(chan error, 1)
	go func() { other <- db.AppendChat(ctx, "other", chatLine(7)) }()
	waitFor(t, func() bool { return db.wr.Waiting() == before+1 })
	evs := queue(t, ctx, db, "full", 0, []engine.Event{{Kind: engine.EvNightBegan, Round: 1}})
	release()
	if err := <-refused; !errors.Is(err, store.ErrChatFull) {
		t.Fatalf("the line past the cap: %v, want ErrChatFull", err)
	}
	if err := <-other; err != nil {
		t.Fatalf("another table's line in the same batch: %v", err)
	}
	if err := <-evs; err != nil {
		t.Fatalf("events in the same batch: %v", err)
	}
	if got, _ := db.Chat(ctx, "full", 0); sameChat(got, 0, want) != "" {
		t.Fatal("the full table's chat changed:", sameChat(got, 0, want))
	}
	db.Close()
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.chatCap = 6
	if err := db.AppendChat(ctx, "full", chatLine(8)); !errors.Is(err, store.ErrChatFull) {
		t.Fatalf("after reopening: %v, want ErrChatFull", err)
	}
	if store.MaxChatLines < 1000 {
		t.Fatalf("store.MaxChatLines = %d: too few for a long game's talk", store.MaxChatLines)
	}
}

// TestChatOfAMissingTableIsNotFound: appending to or reading the chat of a
// table that does not exist is store.ErrNotFound; an existing table with
// no chat has none.
func TestChatOfAMissingTableIsNotFound(t *testing.T) {
	db, _ := openTest(t)
	ctx := context.Background()
	if err := db.AppendChat(ctx, "nope", chatLine(0)); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("append: %v", err)
	}
	if _, err := db.Chat(ctx, "nope", 0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("read: %v", err)
	}
	storetest.CreateTable(t, db, "quiet")
	if got, err := db.Chat(ctx, "quiet", 0); err != nil || len(got) != 0 {
		t.Fatalf("a quiet table: %v, %v", got, err)
	}
}

// TestChatRangeIsAWindowOfTheChat: ChatRange gives the lines numbered
// from..to-1 in order, fewer past the chat's end, none for an empty
// window, and ErrNotFound for a table that does not exist.
func TestChatRangeIsAWindowOfTheChat(t *testing.T) {
	db, _ := openTest(t)
	ctx := context.Background()
	storetest.CreateTable(t, db, "t1")
	storetest.CreateTable(t, db, "t2")
	var want []store.ChatLine
	for i := range 30 {
		l := chatLine(i)
		if err := db.AppendChat(ctx, "t1", l); err != nil {
			t.Fatal(err)
		}
		if err := db.AppendChat(ctx, "t2", chatLine(100+i)); err != nil {
			t.Fatal(err)
		}
		want = append(want, l)
	}
	var _ store.ChatPages = db
	for _, c := range []struct{ from, to, first, last int }{{0, 30, 0, 30}, {10, 20, 10, 20}, {25, 40, 25, 30}, {5, 5, 5, 5}, {30, 50, 30, 30}} {
		got, err := db.ChatRange(ctx, "t1", c.from, c.to)
		if err != nil {
			t.Fatal(err)
		}
		if d := sameChat(got, c.first, want[c.first:c.last]); d != "" {
			t.Errorf("lines %d..%d: %s", c.from, c.to, d)
		}
	}
	if _, err := db.ChatRange(ctx, "nope", 0, 10); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a table that does not exist: %v", err)
	}
}
