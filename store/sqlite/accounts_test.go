package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"mafia/store"
)

// TestAccounts_KeyIsUniqueAndBotsTokensFindTheirBot: a second account
// with a key taken is ErrConflict; a bot is found by its token's hash and
// listed under its owner; a rotated token no longer finds it.
func TestAccounts_KeyIsUniqueAndBotsTokensFindTheirBot(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	now := time.Unix(1700000000, 0).UTC()
	id, err := db.CreateAccount(ctx, store.Account{Name: "Nino", Key: "nino", PasswordHash: "h", Created: now})
	if err != nil || id == 0 {
		t.Fatalf("create: %d, %v", id, err)
	}
	if _, err := db.CreateAccount(ctx, store.Account{Name: "NINO", Key: "nino", PasswordHash: "h", Created: now}); !errors.Is(err, store.ErrConflict) {
		t.Errorf("the same key again: %v, want ErrConflict", err)
	}
	bot, err := db.CreateAccount(ctx, store.Account{Name: "Robo", Key: "robo", Owner: id, BotTokenHash: "t1", Created: now})
	if err != nil {
		t.Fatal(err)
	}
	if a, err := db.AccountByBotToken(ctx, "t1"); err != nil || a.ID != bot || a.Owner != id || !a.Created.Equal(now) {
		t.Errorf("by bot token: %+v, %v", a, err)
	}
	if bots, err := db.Bots(ctx, id); err != nil || len(bots) != 1 || bots[0].Name != "Robo" {
		t.Errorf("bots: %+v, %v", bots, err)
	}
	if err := db.SetBotToken(ctx, bot, "t2"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.AccountByBotToken(ctx, "t1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the rotated token: %v, want ErrNotFound", err)
	}
	if err := db.SetBotToken(ctx, id, "t3"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a bot token for a person's account: %v, want ErrNotFound", err)
	}
}

// TestSessions_SetPasswordEndsTheOthersInOneWrite: a change of password
// keeps the login it names and ends the rest; DeleteSessions ends all.
func TestSessions_SetPasswordEndsTheOthersInOneWrite(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	now := time.Unix(1700000000, 0).UTC()
	id, err := db.CreateAccount(ctx, store.Account{Name: "a", Key: "a", PasswordHash: "h", Created: now})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"s1", "s2", "s3"} {
		if err := db.CreateSession(ctx, store.Session{TokenHash: h, Account: id, Created: now, Expires: now.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.CreateSession(ctx, store.Session{TokenHash: "x", Account: 999, Created: now, Expires: now}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a session of no account: %v, want ErrNotFound", err)
	}
	// A new login forgets the account's expired ones.
	if err := db.CreateSession(ctx, store.Session{TokenHash: "old", Account: id, Created: now.Add(-2 * time.Hour), Expires: now.Add(-time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateSession(ctx, store.Session{TokenHash: "s4", Account: id, Created: now, Expires: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Session(ctx, "old"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an expired login after a new one: %v, want it forgotten", err)
	}
	if err := db.SetPassword(ctx, id, "h2", "s2"); err != nil {
		t.Fatal(err)
	}
	for h, want := range map[string]bool{"s1": false, "s2": true, "s3": false, "s4": false} {
		s, err := db.Session(ctx, h)
		if got := err == nil; got != want || (got && (s.Account != id || !s.Expires.Equal(now.Add(time.Hour)))) {
			t.Errorf("session %s after the change: %+v, %v; want kept %v", h, s, err, want)
		}
	}
	if a, _ := db.AccountByID(ctx, id); a.PasswordHash != "h2" {
		t.Errorf("password hash %q, want h2", a.PasswordHash)
	}
	if err := db.DeleteSessions(ctx, id); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Session(ctx, "s2"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("after DeleteSessions: %v", err)
	}
}

// TestMigration_AccountsKeepEveryTableAndSeat: a file made by the previous
// schema (00005) with tables, seats, events and chat opens with all of
// them unchanged, its seats guests'; the migration goes down to 00005 and
// up again.
func TestMigration_AccountsKeepEveryTableAndSeat(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	if err := newFilePages(path); err != nil {
		t.Fatal(err)
	}
	c, err := sql.Open("sqlite", path+"?"+pragmas)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := provider(t, c).UpTo(ctx, 5); err != nil {
		t.Fatal(err)
	}
	const ts = "2025-01-02T03:04:05.000000000Z"
	for _, q := range []string{
		`INSERT INTO tables (id, kind, name, public, invite, status, data, host_token, seed, winner, created_at, updated_at)
			VALUES ('old-1', 'online', 'Friday', 1, '', 'ended', X'7B7D', 'hh', '7', 'town', '` + ts + `', '` + ts + `')`,
		`INSERT INTO tables (id, kind, name, public, invite, status, data, host_token, seed, winner, created_at, updated_at)
			VALUES ('old-2', 'in_person', 'Club', 0, '', 'in_person', X'7B7D', 'hh', '8', '', '` + ts + `', '` + ts + `')`,
		`INSERT INTO seats (table_id, seat, name, token_hash, bot) VALUES ('old-1', 1, 'Gela', 'th', 0), ('old-1', 2, 'Bot 2', '', 1)`,
		`INSERT INTO events (table_id, seq, kind, json) VALUES ('old-1', 0, 'game_started', '{"kind":"game_started","round":0}')`,
		`INSERT INTO chat (table_id, seq, channel, seat, name, text, at, log, round, phase) VALUES ('old-1', 0, 'town', 1, 'Gela', 'hi', 0, 0, 0, 'lobby')`,
	} {
		if _, err := c.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	c.Close()
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	tb, seats, err := db.Table(ctx, store.KindOnline, "old-1")
	if err != nil || tb.Winner != "town" || tb.Status != store.StatusEnded || len(seats) != 2 ||
		seats[0] != (store.Seat{Seat: 1, Name: "Gela", TokenHash: "th"}) || seats[1] != (store.Seat{Seat: 2, Name: "Bot 2", Bot: true}) {
		t.Errorf("the old table after the migration: %+v %+v, %v", tb, seats, err)
	}
	if tb, _, err := db.Table(ctx, store.KindInPerson, "old-2"); err != nil || tb.Seed != 8 {
		t.Errorf("the in-person game after the migration: %+v, %v", tb, err)
	}
	if chat, err := db.Chat(ctx, "old-1", 0); err != nil || len(chat) != 1 || chat[0].Text != "hi" {
		t.Errorf("chat after the migration: %+v, %v", chat, err)
	}
	if evs, err := db.rawEventsForTest(ctx, "old-1"); err != nil || evs != 1 {
		t.Errorf("events after the migration: %d, %v", evs, err)
	}
	// The old guest seat can be kept by a new account.
	id, err := db.CreateAccount(ctx, store.Account{Name: "Gela", Key: "gela", PasswordHash: "h", Created: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.KeepSeat(ctx, "old-1", "th", id); err != nil {
		t.Fatal(err)
	}
	if err := db.KeepSeat(ctx, "old-1", "th", id); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("keeping a seat twice: %v, want ErrNotFound", err)
	}
	if games, err := db.AccountGames(ctx, id, 0, 0); err != nil || len(games) != 1 || games[0].Table != "old-1" || games[0].Seat != 1 {
		t.Errorf("the kept game: %+v, %v", games, err)
	}
	db.Close()

	c, err = sql.Open("sqlite", path+"?"+pragmas)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := provider(t, c).DownTo(ctx, 5); err != nil {
		t.Fatalf("down to 00005: %v", err)
	}
	var n int
	if err := c.QueryRow(`SELECT count(*) FROM seats`).Scan(&n); err != nil || n != 2 {
		t.Errorf("seats after the migration down: %d, %v", n, err)
	}
	c.Close()
	db, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, seats, err := db.Table(ctx, store.KindOnline, "old-1"); err != nil || len(seats) != 2 || seats[0].Account != 0 {
		t.Errorf("up again: %+v, %v", seats, err)
	}
}

func (db *DB) rawEventsForTest(ctx context.Context, id string) (int, error) {
	var n int
	err := db.r.QueryRowContext(ctx, `SELECT count(*) FROM events WHERE table_id = ?`, id).Scan(&n)
	return n, err
}
