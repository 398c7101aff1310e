package storetest

import (
	"errors"
	"sync"
	"testing"

	"mafia/store"
)

func chats(t *testing.T, db store.Store) store.Chats {
	c, ok := db.(store.Chats)
	if !ok {
		t.Skip("the store keeps no chat")
	}
	return c
}

// chatInOrder: lines come back in the order they were appended, with every
// field; last gives the newest lines only, still in order; lines said at
// once all take a place of their own.
func chatInOrder(t *testing.T, open Open) {
	db := open(t)
	c := chats(t, db)
	CreateTable(t, db, "t1")
	CreateTable(t, db, "t2")
	var want []store.ChatLine
	for i := range 40 {
		l := chatLine(i)
		if err := c.AppendChat(bg, "t1", l); err != nil {
			t.Fatal(err)
		}
		want = append(want, l)
		if i%4 == 0 {
			if err := c.AppendChat(bg, "t2", chatLine(1000+i)); err != nil {
				t.Fatal(err)
			}
		}
	}
	got, err := c.Chat(bg, "t1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if d := sameChat(got, 0, want); d != "" {
		t.Fatal("all lines:", d)
	}
	got, err = c.Chat(bg, "t1", 15)
	if err != nil {
		t.Fatal(err)
	}
	if d := sameChat(got, 25, want[25:]); d != "" {
		t.Fatal("the last 15:", d)
	}
	if got, _ := c.Chat(bg, "t2", 0); len(got) != 10 {
		t.Fatalf("the other table: %d lines, want 10", len(got))
	}
	if got, err := c.Chat(bg, "t2", 100); err != nil || len(got) != 10 {
		t.Fatalf("more asked than kept: %d lines, %v", len(got), err)
	}

	// Ten lines at once, to one table: ten places, 0..9, each line once.
	CreateTable(t, db, "t3")
	var wg sync.WaitGroup
	for i := range 10 {
		wg.Go(func() {
			if err := c.AppendChat(bg, "t3", chatLine(i)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	got, err = c.Chat(bg, "t3", 0)
	if err != nil || len(got) != 10 {
		t.Fatalf("lines said at once: %d, %v; want 10", len(got), err)
	}
	seen := map[string]bool{}
	for i, l := range got {
		if l.Seq != i || seen[l.Text] {
			t.Errorf("line %d: seq %d, %q (seen: %v)", i, l.Seq, l.Text, seen[l.Text])
		}
		seen[l.Text] = true
	}
}

// chatRange: ChatRange gives the lines numbered from..to-1 in order, fewer
// past the chat's end, none for an empty window.
func chatRange(t *testing.T, open Open) {
	db := open(t)
	c := chats(t, db)
	p, ok := c.(store.ChatPages)
	if !ok {
		t.Skip("the store reads no window of the chat")
	}
	CreateTable(t, db, "t1")
	CreateTable(t, db, "t2")
	var want []store.ChatLine
	for i := range 30 {
		l := chatLine(i)
		if err := c.AppendChat(bg, "t1", l); err != nil {
			t.Fatal(err)
		}
		if err := c.AppendChat(bg, "t2", chatLine(100+i)); err != nil {
			t.Fatal(err)
		}
		want = append(want, l)
	}
	for _, w := range []struct{ from, to, first, last int }{{0, 30, 0, 30}, {10, 20, 10, 20}, {25, 40, 25, 30}, {5, 5, 5, 5}, {30, 50, 30, 30}} {
		got, err := p.ChatRange(bg, "t1", w.from, w.to)
		if err != nil {
			t.Fatal(err)
		}
		if d := sameChat(got, w.first, want[w.first:w.last]); d != "" {
			t.Errorf("lines %d..%d: %s", w.from, w.to, d)
		}
	}
	if _, err := p.ChatRange(bg, "nope", 0, 10); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a table that does not exist: %v", err)
	}
}

func chatMissing(t *testing.T, open Open) {
	db := open(t)
	c := chats(t, db)
	if err := c.AppendChat(bg, "nope", chatLine(0)); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("append: %v", err)
	}
	if _, err := c.Chat(bg, "nope", 0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("read: %v", err)
	}
	CreateTable(t, db, "quiet")
	if got, err := c.Chat(bg, "quiet", 0); err != nil || len(got) != 0 {
		t.Fatalf("a quiet table: %v, %v", got, err)
	}
}
