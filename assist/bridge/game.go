package bridge

import (
	"encoding/json"
	"errors"

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
	st.Step = record.StepOf(b.log)
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
	b.settings, b.game, b.log, b.cmds = &s, g, log, list
	var re *record.ReplayError
	if errors.As(err, &re) {
		b.cmds = list[:re.Index]
	}
	r := Reply{Events: b.events(log), State: b.state()}
	if err != nil {
		r.Error = b.refusal(err)
	}
	return encode(r)
}

// Apply hands one entry (JSON of record.Command; id, seq and step are the
// page's) to the engine: the events it caused and the state after it, or
// the engine's refusal in the page's language (stale_step for an entry
// made for a step that has passed).
//
// An undo entry (record.VerbUndo) takes back the last action: the game is
// replayed from the entries left in force, and the reply has no events.
func (b *Bridge) Apply(cmd string) string {
	if b.game == nil {
		return b.refuse(&engine.Error{Code: engine.CodeWrongPhase})
	}
	var rc record.Command
	if err := json.Unmarshal([]byte(cmd), &rc); err != nil {
		return b.refuse(&engine.Error{Code: "bad_request", Name: "command"})
	}
	if err := record.CheckEntry(b.cmds, rc); err != nil {
		return b.refuse(err)
	}
	if err := record.CheckStep(b.log, rc); err != nil {
		return b.refuse(err) // a tap for a step that has passed
	}
	if rc.Verb == record.VerbUndo {
		cmds := append(append([]record.Command(nil), b.cmds...), rc)
		g, log, err := record.Replay(b.settings, cmds)
		if err != nil {
			return b.refuse(errors.Unwrap(err))
		}
		b.game, b.log, b.cmds = g, log, cmds
		return encode(Reply{State: b.state()})
	}
	c, err := rc.Engine()
	if err != nil {
		return b.refuse(err)
	}
	evs, err := b.game.Handle(c)
	if err != nil {
		return b.refuse(err)
	}
	b.log = append(b.log, evs...)
	b.cmds = append(b.cmds, rc)
	return encode(Reply{Events: b.events(evs), State: b.state()})
}

// Undoable says what an undo entered now would take back: the place of the
// last action's first entry (Undo), its entries, and the events they caused
// narrated for the host (Lines); or the refusal (nothing to undo).
func (b *Bridge) Undoable() string {
	if b.game == nil {
		return b.refuse(&engine.Error{Code: engine.CodeWrongPhase})
	}
	last := record.LastAction(b.cmds)
	if last < 0 {
		return b.refuse(&engine.Error{Code: record.CodeNothingToUndo})
	}
	u := record.Command{Verb: record.VerbUndo, Seq: len(b.cmds), Undo: last}
	fixes, err := record.Corrections(b.settings, append(append([]record.Command(nil), b.cmds...), u))
	if err != nil || len(fixes) == 0 {
		return b.refuse(&engine.Error{Code: record.CodeNothingToUndo})
	}
	fix := fixes[len(fixes)-1]
	out := UndoPreview{Undo: last, Commands: fix.Undone, Lines: make([]string, 0, len(fix.Caused))}
	for _, e := range fix.Caused {
		out.Lines = append(out.Lines, b.p.Event(e, engine.Host))
	}
	return encode(out)
}

// UndoPreview is Undoable's answer.
type UndoPreview struct {
	Undo     int              `json:"undo"`
	Commands []record.Command `json:"commands"`
	Lines    []string         `json:"lines"`
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
	p := record.Build(b.settings, b.log)
	if fixes, err := record.Corrections(b.settings, b.cmds); err == nil {
		p.Correct(fixes)
	}
	return encode(p)
}

// Log narrates every event so far for the host, one line each.
func (b *Bridge) Log() string {
	lines := make([]string, 0, len(b.log))
	for _, e := range b.log {
		lines = append(lines, b.p.Event(e, engine.Host))
	}
	return encode(lines)
}
