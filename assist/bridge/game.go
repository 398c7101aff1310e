package bridge

import (
	"encoding/json"

	"mafia/assist/record"
	"mafia/engine"
	"mafia/wire"
)

func (b *Bridge) events(evs []engine.Event) []wire.Event {
	out := make([]wire.Event, len(evs))
	for i, e := range evs {
		out[i] = wire.FromEvent(e, b.game.Players())
	}
	return out
}

func (b *Bridge) state() *record.State {
	st := record.Snapshot(b.game)
	st.Queue = record.Queue(b.game, b.log)
	return &st
}

// Start begins the game of the settings (JSON of record.Settings) and
// replays the entries made so far (JSON list of record.Command, or ""). It
// answers with every event and the state, or the refusal of the settings or
// of the first entry the engine refuses (the game then stands before it).
func (b *Bridge) Start(settings, cmds string) string {
	var s record.Settings
	if err := json.Unmarshal([]byte(settings), &s); err != nil {
		return b.refuse(&engine.Error{Code: record.CodeBadSettings, Name: "json"})
	}
	var list []record.Command
	if cmds != "" {
		if err := json.Unmarshal([]byte(cmds), &list); err != nil {
			return b.refuse(&engine.Error{Code: "bad_request", Name: "commands"})
		}
	}
	g, log, err := record.Replay(&s, list)
	if g == nil {
		return b.refuse(err)
	}
	b.settings, b.game, b.log = &s, g, log
	r := Reply{Events: b.events(log), State: b.state()}
	if err != nil {
		r.Error = b.refusal(err)
	}
	return encode(r)
}

// Apply hands one entry (JSON of record.Command; id and seq are the page's)
// to the engine: the events it caused and the state after it, or the
// engine's refusal in the page's language.
func (b *Bridge) Apply(cmd string) string {
	c, err := b.command(cmd)
	if err != nil {
		return b.refuse(err)
	}
	evs, err := b.game.Handle(c)
	if err != nil {
		return b.refuse(err)
	}
	b.log = append(b.log, evs...)
	return encode(Reply{Events: b.events(evs), State: b.state()})
}

// Check answers whether the engine would accept an entry: {} or its refusal.
func (b *Bridge) Check(cmd string) string {
	c, err := b.command(cmd)
	if err == nil {
		err = b.game.Check(c)
	}
	if err != nil {
		return b.refuse(err)
	}
	return "{}"
}

func (b *Bridge) command(cmd string) (engine.Command, error) {
	if b.game == nil {
		return engine.Command{}, &engine.Error{Code: engine.CodeWrongPhase}
	}
	var c record.Command
	if err := json.Unmarshal([]byte(cmd), &c); err != nil {
		return engine.Command{}, &engine.Error{Code: "bad_request", Name: "command"}
	}
	return c.Engine()
}

// State returns the state of the game now.
func (b *Bridge) State() string {
	if b.game == nil {
		return b.refuse(&engine.Error{Code: engine.CodeWrongPhase})
	}
	return encode(Reply{State: b.state()})
}

// Mafia returns the entries that record the mafia's choice (target 0: a
// miss), without applying them (record.MafiaCommands).
func (b *Bridge) Mafia(target int) string {
	if b.game == nil {
		return b.refuse(&engine.Error{Code: engine.CodeWrongPhase})
	}
	var out []record.Command
	for _, c := range record.MafiaCommands(b.game, engine.Seat(min(max(target, 0), engine.MaxSeats))) {
		out = append(out, record.FromEngine(c))
	}
	return encode(Reply{Cmds: out})
}

// Protocol returns the protocol of the game so far (record.Build).
func (b *Bridge) Protocol() string {
	if b.game == nil {
		return b.refuse(&engine.Error{Code: engine.CodeWrongPhase})
	}
	return encode(record.Build(b.settings, b.log))
}

// Log narrates every event so far for the host, one line each.
func (b *Bridge) Log() string {
	lines := make([]string, 0, len(b.log))
	for _, e := range b.log {
		lines = append(lines, b.p.Event(e, engine.Host))
	}
	return encode(lines)
}
