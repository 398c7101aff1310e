package room_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"mafia/engine"
	"mafia/internal/secret"
	"mafia/internal/sqlitetest"
	"mafia/room"
	"mafia/store"
)

// sandboxSettings is a private 7-seat table (don, mafioso, detective,
// doctor, three citizens) with the sandbox sb.
func sandboxSettings(t testing.TB, sb *room.Sandbox) room.Settings {
	t.Helper()
	set := settings(t, 7, fastTimings)
	set.Public = false
	set.Sandbox = sb
	return set
}

// sevenDeal is a deal of the 7-seat preset, the Detective in seat 4.
var sevenDeal = []string{"citizen", "don", "citizen", "detective", "mafia", "doctor", "citizen"}

// startSandbox seats the host at hostSeat (0: none), fills the rest with
// bots and starts the game; it returns the start's refusal, if any.
func startSandbox(f *fixture, hostSeat int) error {
	f.t.Helper()
	host := f.hostClient()
	if hostSeat != 0 {
		s, _, err := f.r.Join(bg(), room.JoinRequest{Name: "Author", Seat: hostSeat, Token: f.host})
		if err != nil || s != hostSeat {
			f.t.Fatalf("the host's join at %d: seat %d, %v", hostSeat, s, err)
		}
	}
	host.must(hostAction("add_bots", 0))
	return host.send(hostAction("start", 0))
}

// roleNames spells a deal (index 0 unused) as a sandbox does.
func roleNames(roles []engine.Role) []string {
	out := make([]string, 0, len(roles))
	for _, r := range roles[1:] {
		out = append(out, r.String())
	}
	return out
}

// TestSandbox_TheDealIsTheOneAsked: a sandbox's deal is dealt as given, seat
// 1's card first, whoever sits where; the game records no seed for it (no
// seed dealt it).
func TestSandbox_TheDealIsTheOneAsked(t *testing.T) {
	for _, c := range []struct {
		name     string
		deal     []string
		hostSeat int
	}{
		{"the detective in seat 4, the host at seat 4", sevenDeal, 4},
		{"the same deal, the host at seat 1", sevenDeal, 1},
		{"the don in seat 7, the host seatless", []string{"detective", "citizen", "mafia", "doctor", "citizen", "citizen", "don"}, 0},
		{"mafioso spelt out", []string{"mafioso", "don", "citizen", "detective", "citizen", "doctor", "citizen"}, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, sandboxSettings(t, &room.Sandbox{Deal: c.deal}), nil)
			if err := startSandbox(f, c.hostSeat); err != nil {
				t.Fatalf("start: %v", err)
			}
			want := slices.Clone(c.deal)
			for i := range want {
				if want[i] == "mafioso" {
					want[i] = "mafia"
				}
			}
			if got := roleNames(f.truth()); !slices.Equal(got, want) {
				t.Errorf("dealt %v, asked %v", got, want)
			}
			if seed := f.events()[0].Seed; seed != 0 {
				t.Errorf("a deal given whole records seed %d", seed)
			}
		})
	}
}

// TestSandbox_TheCardIsTheCreatorsOrTheSeatsAsked: a sandbox's card goes to
// the host's seat (or to the seat it names), game after game, and the other
// seats get the rest of the setup, dealt at random by the game's seed; a
// card for the host's seat while the host has none refuses the start
// (sandbox_no_seat) and deals nothing.
func TestSandbox_TheCardIsTheCreatorsOrTheSeatsAsked(t *testing.T) {
	preset, _ := engine.Preset(7)
	for _, c := range []struct {
		name           string
		sb             room.Sandbox
		hostSeat, seat int // seat: where the card must land
	}{
		{"the detective, the host at seat 3", room.Sandbox{Card: "detective"}, 3, 3},
		{"the detective, the host at seat 1", room.Sandbox{Card: "detective"}, 1, 1},
		{"the don, the host at seat 7", room.Sandbox{Card: "don"}, 7, 7},
		{"a citizen, the host at seat 2", room.Sandbox{Card: "citizen"}, 2, 2},
		{"the doctor at seat 5, the host at seat 1", room.Sandbox{Card: "doctor", Seat: 5}, 1, 5},
		{"the mafioso at seat 6, the host seatless", room.Sandbox{Card: "mafia", Seat: 6}, 0, 6},
	} {
		t.Run(c.name, func(t *testing.T) {
			card, _ := engine.ParseRole(c.sb.Card)
			others := map[string]int{}
			for game := 0; game < 8; game++ {
				sb := c.sb
				f := newFixture(t, sandboxSettings(t, &sb), nil)
				if err := startSandbox(f, c.hostSeat); err != nil {
					t.Fatalf("start: %v", err)
				}
				roles := f.truth()
				if roles[c.seat] != card {
					t.Fatalf("game %d: seat %d got %v, want %v (deal %v)", game, c.seat, roles[c.seat], card, roleNames(roles))
				}
				if engine.SetupOf(roles[1:]) != preset {
					t.Fatalf("game %d: the deal %v is not the table's setup", game, roleNames(roles))
				}
				if f.events()[0].Seed == 0 {
					t.Errorf("game %d: the rest was dealt with no seed recorded", game)
				}
				rest := slices.Delete(slices.Clone(roles[1:]), c.seat-1, c.seat)
				others[strings.Join(roleNames(append([]engine.Role{0}, rest...)), ",")]++
			}
			if len(others) < 2 {
				t.Errorf("8 games dealt the other seats the same way every time: %v", others)
			}
		})
	}
	t.Run("the host's card with the host seatless", func(t *testing.T) {
		f := newFixture(t, sandboxSettings(t, &room.Sandbox{Card: "detective"}), nil)
		if err := startSandbox(f, 0); codeOf(err) != room.CodeSandboxNoSeat {
			t.Fatalf("start: %v, want %s", err, room.CodeSandboxNoSeat)
		}
		if evs := f.events(); len(evs) != 0 {
			t.Errorf("a refused start left %d events", len(evs))
		}
		if l := f.r.Lobby(); l.Status != "lobby" {
			t.Errorf("status %q after a refused start", l.Status)
		}
	})
}

// TestSandbox_ABadSandboxIsRefusedAndNothingIsMade: a sandbox that does
// not fit its table's setup is refused with its code, and no table is
// stored.
func TestSandbox_ABadSandboxIsRefusedAndNothingIsMade(t *testing.T) {
	db, err := sqlitetest.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cfg := room.Config{Store: db, Clock: room.NewFakeClock(t0)}
	for _, c := range []struct {
		name string
		sb   room.Sandbox
		pub  bool
		code engine.Code
	}{
		{"neither a deal nor a card", room.Sandbox{}, false, room.CodeSandboxDealOrCard},
		{"a seat alone", room.Sandbox{Seat: 2}, false, room.CodeSandboxDealOrCard},
		{"a deal and a card", room.Sandbox{Deal: sevenDeal, Card: "detective"}, false, room.CodeSandboxDealOrCard},
		{"a deal and a seat", room.Sandbox{Deal: sevenDeal, Seat: 1}, false, room.CodeSandboxDealOrCard},
		{"a deal one card short", room.Sandbox{Deal: sevenDeal[:6]}, false, room.CodeSandboxDealSize},
		{"a deal one card over", room.Sandbox{Deal: append(slices.Clone(sevenDeal), "citizen")}, false, room.CodeSandboxDealSize},
		{"two dons", room.Sandbox{Deal: []string{"don", "don", "citizen", "detective", "citizen", "doctor", "citizen"}}, false, room.CodeSandboxDealRoles},
		{"a maniac the setup lacks", room.Sandbox{Deal: []string{"maniac", "don", "citizen", "detective", "mafia", "doctor", "citizen"}}, false, room.CodeSandboxDealRoles},
		{"no doctor", room.Sandbox{Deal: []string{"citizen", "don", "citizen", "detective", "mafia", "citizen", "citizen"}}, false, room.CodeSandboxDealRoles},
		{"a card that is no role in the deal", room.Sandbox{Deal: []string{"wizard", "don", "citizen", "detective", "mafia", "doctor", "citizen"}}, false, engine.CodeUnknownRole},
		{"a card in another case", room.Sandbox{Deal: []string{"Citizen", "don", "citizen", "detective", "mafia", "doctor", "citizen"}}, false, engine.CodeUnknownRole},
		{"a card that is no role", room.Sandbox{Card: "sheriff"}, false, engine.CodeUnknownRole},
		{"a card the setup does not deal", room.Sandbox{Card: "maniac"}, false, room.CodeSandboxCard},
		{"a card for seat 8 of 7", room.Sandbox{Card: "detective", Seat: 8}, false, engine.CodeNoSuchSeat},
		{"a card for seat -1", room.Sandbox{Card: "detective", Seat: -1}, false, engine.CodeNoSuchSeat},
		{"a public sandbox", room.Sandbox{Card: "detective"}, true, room.CodeSandboxPublic},
	} {
		t.Run(c.name, func(t *testing.T) {
			set := sandboxSettings(t, &c.sb)
			set.Public = c.pub
			if _, _, err := set.Check(); codeOf(err) != c.code {
				t.Errorf("Check: %v, want %s", err, c.code)
			}
			if r, _, err := room.Create(bg(), cfg, set); codeOf(err) != c.code {
				if r != nil {
					r.Stop()
				}
				t.Errorf("Create: %v, want %s", err, c.code)
			}
		})
	}
	for _, st := range []store.Status{store.StatusLobby, store.StatusPlaying} {
		if ts, err := db.Tables(bg(), store.KindOnline, store.TableFilter{Status: st}); err != nil || len(ts) != 0 {
			t.Errorf("%s tables stored after refusals: %d, %v", st, len(ts), err)
		}
	}
}

// TestSandbox_NobodyButTheCreatorSits: at a sandbox, a join without the
// host's token (none, or a token of no seat here) is refused with
// sandbox_table and seats nobody, before the start and after a kick; the
// host's own join is seated, and a spectator may watch.
func TestSandbox_NobodyButTheCreatorSits(t *testing.T) {
	f := newFixture(t, sandboxSettings(t, &room.Sandbox{Card: "detective"}), nil)
	tryJoin := func(when, token string) {
		t.Helper()
		for _, seat := range []int{0, 2} {
			if _, _, err := f.r.Join(bg(), room.JoinRequest{Name: "Guest", Seat: seat, Token: token, Client: "c1", Addr: "a1"}); codeOf(err) != room.CodeSandboxTable {
				t.Errorf("%s: a join at seat %d with token %q: %v, want %s", when, seat, token, err, room.CodeSandboxTable)
			}
		}
		for _, s := range f.r.Lobby().Seats {
			if s.Taken && !s.Bot && s.Seat != 1 {
				t.Errorf("%s: seat %d is taken by %q", when, s.Seat, s.Name)
			}
		}
	}
	tryJoin("in an empty lobby", "")
	tryJoin("in an empty lobby, with a made-up token", secret.Token())
	if s, tok, err := f.r.Join(bg(), room.JoinRequest{Name: "Author", Seat: 1, Token: f.host}); err != nil || s != 1 || tok != f.host {
		t.Fatalf("the host's join: %d %v", s, err)
	}
	tryJoin("beside the host", "")
	host := f.hostClient()
	host.must(hostAction("add_bots", 0))
	host.must(hostAction("kick", 2))
	tryJoin("after a bot was kicked", "")
	f.attach("") // a spectator may watch (attach fails the test if refused)
	host.must(hostAction("add_bots", 0))
	host.must(hostAction("start", 0))
	if roles := f.truth(); roles[1] != engine.Detective {
		t.Errorf("the host's seat got %v", roles[1])
	}
}

// TestSandbox_TheLobbyMarksItAndNothingElseChanges: a sandbox's lobby says
// sandbox (and nothing of its deal), a normal table's does not.
func TestSandbox_TheLobbyMarksItAndNothingElseChanges(t *testing.T) {
	sb := newFixture(t, sandboxSettings(t, &room.Sandbox{Deal: sevenDeal}), nil)
	plain := newFixture(t, sandboxSettings(t, nil), nil)
	if !sb.r.Lobby().Sandbox {
		t.Error("the sandbox's lobby does not say sandbox")
	}
	if plain.r.Lobby().Sandbox {
		t.Error("a normal table's lobby says sandbox")
	}
	a, b := sb.r.Lobby(), plain.r.Lobby()
	a.Table, b.Table, a.Sandbox = "", "", false
	if string(a.AppendJSON(nil)) != string(b.AppendJSON(nil)) {
		t.Errorf("the lobbies differ beyond the mark:\n%s\n%s", a.AppendJSON(nil), b.AppendJSON(nil))
	}
}

// TestSandbox_ARestartKeepsIt: a sandbox stored in the lobby, and one
// stopped in the middle of its game, resume as sandboxes: the lobby says
// so, joins are refused, and the card still goes to the seat asked.
func TestSandbox_ARestartKeepsIt(t *testing.T) {
	t.Run("in the lobby", func(t *testing.T) {
		f := newFixture(t, sandboxSettings(t, &room.Sandbox{Card: "detective"}), nil)
		if _, _, err := f.r.Join(bg(), room.JoinRequest{Name: "Author", Seat: 3, Token: f.host}); err != nil {
			t.Fatal(err)
		}
		f.restart(f.crash(t0), t0)
		if !f.r.Lobby().Sandbox {
			t.Fatal("the resumed lobby does not say sandbox")
		}
		if _, _, err := f.r.Join(bg(), room.JoinRequest{Name: "Guest"}); codeOf(err) != room.CodeSandboxTable {
			t.Errorf("a guest's join after the restart: %v", err)
		}
		host := f.hostClient()
		host.must(hostAction("add_bots", 0))
		host.must(hostAction("start", 0))
		if roles := f.truth(); roles[3] != engine.Detective {
			t.Errorf("after the restart seat 3 got %v", roles[3])
		}
	})
	t.Run("in the game", func(t *testing.T) {
		f := newFixture(t, sandboxSettings(t, &room.Sandbox{Deal: sevenDeal}), nil)
		if err := startSandbox(f, 4); err != nil {
			t.Fatal(err)
		}
		f.ticks(500 * time.Millisecond)
		f.restart(f.crash(t0.Add(500*time.Millisecond)), t0.Add(500*time.Millisecond))
		if l := f.r.Lobby(); !l.Sandbox || l.Status != "playing" {
			t.Fatalf("the resumed lobby: sandbox %v, status %q", l.Sandbox, l.Status)
		}
		if got := roleNames(f.truth()); !slices.Equal(got, sevenDeal) {
			t.Errorf("after the restart the deal is %v", got)
		}
		before := len(f.events())
		f.attach(f.host)
		f.ticks(5 * time.Second)
		if after := len(f.events()); after <= before {
			t.Errorf("the resumed sandbox game stands still: %d events before 5 s, %d after", before, after)
		}
	})
}
