package server

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"mafia/client"
)

// reservedAccounts signs up n accounts (names P1..Pn) and returns their
// logins' tokens and their ids, in that order.
func reservedAccounts(t *testing.T, ctx context.Context, as *accountsServer, n int) ([]string, []int64) {
	t.Helper()
	var creds []string
	var ids []int64
	for i := 1; i <= n; i++ {
		a, tok, err := as.svc.Signup(ctx, "P"+strconv.Itoa(i), "password1", "")
		if err != nil {
			t.Fatal(err)
		}
		creds, ids = append(creds, tok), append(ids, a.Account.ID)
	}
	return creds, ids
}

// refusedCode fails unless err is the API's refusal with code.
func refusedCode(t *testing.T, what string, err error, code string) {
	t.Helper()
	var ae *client.Error
	if !errors.As(err, &ae) || ae.Code != code {
		t.Fatalf("%s: %v, want %s", what, err, code)
	}
}

// playSeats plays every connection to the end with random legal moves.
func playSeats(t *testing.T, ctx context.Context, conns []*client.Conn) {
	t.Helper()
	errs := make(chan error, len(conns))
	for i, c := range conns {
		go func() { _, err := playRandomly(ctx, c, uint64(i+1)); errs <- err }()
	}
	for range conns {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range conns {
		c.Close()
	}
}

// TestReservedSeatsAreTheirAccountsAndTheGameStartsWhenAllArePresent: a
// table opened with every seat held for an account refuses a stranger's
// account and a guest (seat_reserved, 403), whether they ask for a seat or
// any; a spectator watches; each account is given its own seat whatever
// it asks for, and the game starts by itself when the last of them
// connects; the finished game reads back as a club counts it.
func TestReservedSeatsAreTheirAccountsAndTheGameStartsWhenAllArePresent(t *testing.T) {
	as := startAccountsServer(t)
	ctx := within(t, 120*time.Second)
	creds, ids := reservedAccounts(t, ctx, as, 11)
	stranger := creds[10]
	creds, ids = creds[:10], ids[:10]
	// Seat s is held for the account of creds[(s+2)%10]: not in order.
	held := make([]int64, 10)
	for s := range held {
		held[s] = ids[(s+2)%10]
	}
	id, err := as.srv.OpenReserved(ctx, "Round 1, table 1", held, false, time.Time{}, fastTimings)
	if err != nil {
		t.Fatal(err)
	}
	_, err = as.api.Join(ctx, id, "x", 1, stranger)
	refusedCode(t, "a stranger asking for seat 1", err, "seat_reserved")
	_, err = as.api.Join(ctx, id, "x", 0, stranger)
	refusedCode(t, "a stranger asking for any seat", err, "seat_reserved")
	_, err = as.api.Join(ctx, id, "Guest", 0, "")
	refusedCode(t, "a guest", err, "seat_reserved")
	// An account asking for another's seat is refused too.
	_, err = as.api.Join(ctx, id, "x", 1, creds[0])
	refusedCode(t, "an account asking for another's seat", err, "seat_reserved")
	watcher, err := as.api.Dial(ctx, id, "", 0)
	if err != nil {
		t.Fatalf("a spectator: %v", err)
	}
	defer watcher.Close()
	conns := make([]*client.Conn, 10)
	for i, c := range creds {
		j, err := as.api.Join(ctx, id, "ignored", 0, c)
		if err != nil {
			t.Fatalf("join of P%d: %v", i+1, err)
		}
		if want := (i+8)%10 + 1; j.Seat != want {
			t.Fatalf("P%d got seat %d, want %d (its own)", i+1, j.Seat, want)
		}
		if l, err := as.api.Table(ctx, id); err != nil || l.Status != "lobby" {
			t.Fatalf("after %d joins the table is %q (%v), want lobby", i+1, l.Status, err)
		}
		if conns[i], err = as.api.Dial(ctx, id, j.Token, 0); err != nil {
			t.Fatal(err)
		}
	}
	playSeats(t, ctx, conns)
	as.ended(t, ctx, id)
	g, ok := as.srv.ClubGame(ctx, id)
	if !ok || g.Winner == "" || len(g.Seats) != 10 {
		t.Fatalf("the club's game: %+v, %v", g, ok)
	}
	for i, s := range g.Seats {
		if s.Seat != i+1 || s.Role == "" || s.Name != "P"+strconv.Itoa((i+2)%10+1) {
			t.Fatalf("seat %d as the club counts it: %+v", i+1, s)
		}
	}
}

// TestAReservedTableStartsWithBotsForTheAbsent: StartReserved (the
// organiser's "start now") gives the seats nobody took to the server's
// bots and starts the game; the present players play it to the end; a
// rated table so played is not rated (a bot has no account).
func TestAReservedTableStartsWithBotsForTheAbsent(t *testing.T) {
	as := startAccountsServer(t)
	ctx := within(t, 120*time.Second)
	creds, ids := reservedAccounts(t, ctx, as, 10)
	id, err := as.srv.OpenReserved(ctx, "Round 1, table 1", ids, true, time.Time{}, fastTimings)
	if err != nil {
		t.Fatal(err)
	}
	var conns []*client.Conn
	for i, c := range creds[:8] {
		j, err := as.api.Join(ctx, id, "ignored", 0, c)
		if err != nil || j.Seat != i+1 {
			t.Fatalf("join of P%d: seat %d, %v", i+1, j.Seat, err)
		}
		cn, err := as.api.Dial(ctx, id, j.Token, 0)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, cn)
	}
	if l, _ := as.api.Table(ctx, id); l.Status != "lobby" {
		t.Fatalf("with two absent the table is %q, want lobby", l.Status)
	}
	if err := as.srv.StartReserved(ctx, id); err != nil {
		t.Fatal(err)
	}
	l, err := as.api.Table(ctx, id)
	if err != nil || l.Status != "playing" {
		t.Fatalf("after start now: %q, %v", l.Status, err)
	}
	for _, s := range l.Seats {
		if s.Bot != (s.Seat > 8) {
			t.Fatalf("seat %d: bot %v", s.Seat, s.Bot)
		}
	}
	_, err = as.api.Join(ctx, id, "late", 0, creds[9])
	refusedCode(t, "a join after the start", err, "already_started")
	if err := as.srv.StartReserved(ctx, id); err == nil {
		t.Fatal("started twice")
	}
	playSeats(t, ctx, conns)
	as.ended(t, ctx, id)
	if _, ok := as.srv.ClubGame(ctx, id); !ok {
		t.Fatal("the game does not count")
	}
	if err := as.srv.rateTable(ctx, id); err != nil {
		t.Fatalf("rating a table with the server's bots: %v", err)
	}
	for _, a := range ids {
		if prs, _ := as.db.PlayerRatings(ctx, strconv.FormatInt(a, 10)); len(prs) != 0 {
			t.Fatalf("account %d rated: %+v", a, prs)
		}
	}
}

// TestAReservedTableStartsAtItsTimeWithNobody: at StartBy, a table whose
// players never came starts with bots in every seat.
func TestAReservedTableStartsAtItsTimeWithNobody(t *testing.T) {
	as := startAccountsServer(t)
	ctx := within(t, 60*time.Second)
	_, ids := reservedAccounts(t, ctx, as, 10)
	id, err := as.srv.OpenReserved(ctx, "Round 2, table 1", ids, false, time.Now().Add(50*time.Millisecond), fastTimings)
	if err != nil {
		t.Fatal(err)
	}
	for ctx.Err() == nil {
		if l, err := as.api.Table(ctx, id); err == nil && l.Status != "lobby" {
			for _, s := range l.Seats {
				if !s.Bot {
					t.Fatalf("seat %d is no bot's", s.Seat)
				}
			}
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the table never started")
}
