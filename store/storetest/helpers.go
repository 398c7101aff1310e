package storetest

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"mafia/bot"
	"mafia/engine"
	"mafia/rng"
	"mafia/store"
)

var bg = context.Background()

// BotGame plays a complete game with random bots under random rules, and
// returns its log and the live game.
func BotGame(t testing.TB, seed uint64) ([]engine.Event, *engine.Game) {
	t.Helper()
	log, g, err := PlayBotGame(seed)
	if err != nil {
		t.Fatal(err)
	}
	return log, g
}

// PlayBotGame is BotGame for a caller outside a test (a child process's).
func PlayBotGame(seed uint64) ([]engine.Event, *engine.Game, error) {
	src := rng.New(seed)
	players := engine.PresetMin + src.Intn(engine.PresetMax-engine.PresetMin+1)
	setup, _ := engine.Preset(players)
	rules := engine.DefaultRules()
	for _, o := range engine.Options {
		if o.Values != nil {
			_ = rules.Set(o.Name, o.Values[src.Intn(len(o.Values))])
		}
	}
	g, start, err := engine.New(rules, setup.Deal(seed, nil), seed)
	if err != nil {
		return nil, nil, err
	}
	log := append([]engine.Event(nil), start...)
	bots := make([]bot.Bot, players+1)
	for s := 1; s <= players; s++ {
		bots[s] = bot.NewRandom(rng.Derive(seed, uint64(s)))
	}
	tb := &bot.Table{Game: g, Bots: bots, OnEvents: func(_ engine.Command, evs []engine.Event) {
		log = append(log, evs...)
	}}
	if !tb.Play(10000) {
		return nil, nil, fmt.Errorf("the game of seed %d did not end", seed)
	}
	return log, g, nil
}

// CreateTable records a playing online table with the given ID.
func CreateTable(t testing.TB, db store.Store, id string) {
	t.Helper()
	err := db.CreateTable(bg, store.Table{ID: id, Kind: store.KindOnline, Name: "table " + id, Status: store.StatusPlaying}, nil)
	if err != nil {
		t.Fatal(err)
	}
}

// AppendInBatches appends a log in batches of 1-5 events, sized by src.
func AppendInBatches(ctx context.Context, db store.Store, id string, log []engine.Event, src *rng.Source) error {
	for i := 0; i < len(log); {
		n := min(1+src.Intn(5), len(log)-i)
		if err := db.AppendEvents(ctx, id, i, log[i:i+n]); err != nil {
			return fmt.Errorf("append %d..%d to %s: %w", i, i+n, id, err)
		}
		i += n
	}
	return nil
}

// SameEvents reports where two logs first differ, or "" if they are equal.
func SameEvents(got, want []engine.Event) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d events, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			return fmt.Sprintf("event %d is %+v, want %+v", i, got[i], want[i])
		}
	}
	return ""
}

// events reads a log, failing the test if it cannot.
func events(t *testing.T, db store.Store, id string) []engine.Event {
	t.Helper()
	evs, err := db.Events(bg, id)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

func sameTable(a, b store.Table) bool {
	return a.ID == b.ID && a.Kind == b.Kind && a.Name == b.Name && a.Public == b.Public && a.Invite == b.Invite &&
		a.Status == b.Status && bytes.Equal(a.Data, b.Data) && a.HostToken == b.HostToken &&
		a.Seed == b.Seed && a.Winner == b.Winner &&
		a.CreatedAt.Equal(b.CreatedAt) && a.UpdatedAt.Equal(b.UpdatedAt)
}

func sameClock(a, b store.Clock) bool {
	return a.Step == b.Step && a.Deadline.Equal(b.Deadline) && a.Left == b.Left && a.Paused == b.Paused
}

// chatLine is the i-th line of a test conversation.
func chatLine(i int) store.ChatLine {
	channels := []string{"town", "mafia", "dead"}
	return store.ChatLine{Channel: channels[i%3], Seat: i%10 + 1, Name: fmt.Sprintf("№%d Nino", i%10+1),
		Text: fmt.Sprintf("line %d: ჩემი აზრით", i), At: time.UnixMilli(1796000000000 + int64(i)*1500).UTC(),
		Log: i / 2, Round: i / 7, Phase: "speech", Bot: botLine(i)}
}

// botLine is what line i means when a bot said it: every third line a
// server's bot's, with every field in turn.
func botLine(i int) store.BotLine {
	switch i % 9 {
	case 1:
		return store.BotLine{Kind: "claim", Role: "detective", Count: i%5 + 1, Pick: i % 256}
	case 4:
		return store.BotLine{Kind: "checked", Seat: i%10 + 1, Result: "mafia", Pick: i % 7, Voice: true}
	case 5:
		return store.BotLine{Kind: "best_move", Seat: 3, More: [2]int{i%10 + 1, 9}, Pick: 2}
	case 7:
		return store.BotLine{Kind: "good_game"}
	}
	return store.BotLine{}
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
