package admission

import (
	"context"
	"errors"
	"testing"

	"mafia/engine"
)

// TestRules_ATableIsRefusedByTheRuleItBreaks pins each seat rule behind
// the policy: which door it keeps, and its code.
func TestRules_ATableIsRefusedByTheRuleItBreaks(t *testing.T) {
	guest := Who{Addr: "a1"}
	nino := Who{Account: 1, Addr: "a1"}
	ninosBot := Who{Account: 2, Bot: true, Owner: 1, Addr: "a2"}
	gio := Who{Account: 3, Addr: "a3"}
	seen := func(p int64) []string {
		if p == 3 {
			return []string{"a1"} // Gio logged in from Nino's address lately
		}
		return nil
	}
	for _, tc := range []struct {
		name  string
		rules Rules
		who   Who
		at    Table
		want  engine.Code
	}{
		{"a sandbox seats its host only", Rules{}, nino, Table{Door: DoorJoin, Sandbox: true}, CodeSandboxTable},
		{"a sandbox seats its host", Rules{}, nino, Table{Door: DoorJoin, Sandbox: true, Host: true}, ""},
		{"a rated table seats no guest", Rules{}, guest, Table{Door: DoorJoin, Rated: true}, CodeRatedTable},
		{"a kicked client sits no more", Rules{}, nino, Table{Door: DoorJoin, Blocked: true}, CodeBlocked},
		{"the host is never blocked", Rules{}, nino, Table{Door: DoorJoin, Blocked: true, Host: true}, ""},
		{"an address takes its share", Rules{SeatsPerAddress: 1}, guest, Table{Door: DoorJoin, Seats: []Who{{Addr: "a1"}}}, CodeSeatLimit},
		{"a person and their bot are one share", Rules{SeatsPerAddress: 1}, ninosBot, Table{Door: DoorJoin, Seats: []Who{nino}}, CodeOwnSeatLimit},
		{"a login seen at an address links its person", Rules{SeatsPerAddress: 1, AddrsOf: seen}, gio, Table{Door: DoorJoin, Seats: []Who{{Addr: "a1"}}}, CodeSeatLimit},
		{"a rated table is one seat a person", Rules{SeatsPerAddress: 3}, ninosBot, Table{Door: DoorJoin, Rated: true, Seats: []Who{nino}}, CodeOwnSeatLimit},
		{"an unlimited address links by accounts only", Rules{SeatsPerAddress: 1}, Who{Addr: "a1", Unlimited: true}, Table{Door: DoorJoin, Seats: []Who{{Addr: "a1", Unlimited: true}}}, ""},
		{"no limit at all", Rules{SeatsPerAddress: -1}, guest, Table{Door: DoorJoin, Seats: []Who{{Addr: "a1"}}}, ""},
		{"the seat's own door lets its holder in", Rules{SeatsPerAddress: 1}, nino, Table{Door: DoorSeat, Rated: true, Blocked: true}, ""},
		{"a login has no seat rule", Rules{}, nino, Table{Door: DoorLogin}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.rules.CanSit(context.Background(), tc.who, tc.at)
			var e *engine.Error
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != "" && (!errors.As(err, &e) || e.Code != tc.want):
				t.Fatalf("got %v, want %s", err, tc.want)
			}
		})
	}
}

// TestChain_TheFirstRefusalIsTheAnswer: moderation in front of the rules
// answers first; a nil policy in the chain is skipped.
func TestChain_TheFirstRefusalIsTheAnswer(t *testing.T) {
	barred := Func(func(context.Context, Who, Table) error { return &engine.Error{Code: CodeBarred} })
	c := Chain{nil, barred, Rules{}}
	var e *engine.Error
	if err := c.CanSit(context.Background(), Who{}, Table{Door: DoorJoin, Rated: true}); !errors.As(err, &e) || e.Code != CodeBarred {
		t.Fatalf("got %v, want barred first", err)
	}
	if err := (Chain{nil, Rules{}}).CanSit(context.Background(), Who{Account: 1}, Table{Door: DoorJoin}); err != nil {
		t.Fatalf("refused: %v", err)
	}
}
