package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"mafia/engine"
	"mafia/locale"
)

// Scenario is one parsed file.
type Scenario struct {
	Path  string
	Name  string
	Roles []engine.Role
	Rules engine.Ruleset
	Seed  uint64
	Steps []Step
}

// StepKind says what a step does.
type StepKind uint8

// The kinds of step.
const (
	StepAction StepKind = iota + 1 // a player's or the host's command
	StepNext                       // the host or the clock ends the current step
	StepExpect                     // an assertion on the state
)

// Step is one parsed step. Index is its 1-based position in the file.
type Step struct {
	Index  int
	Kind   StepKind
	Cmd    engine.Command
	Result engine.Result // for a check: the answer required (ResultNone: not asserted)
	Reject bool          // the engine must refuse the command
	Times  int           // for next
	Expect Expect
}

// Expect is the set of assertions of an expect step; nil fields are not checked.
type Expect struct {
	Phase      *engine.Phase
	Round      *int
	Alive      []engine.Seat
	HasAlive   bool
	Speaker    *engine.Seat
	Candidates []engine.Seat
	HasCands   bool
	Winner     *engine.Winner
	Talk       []engine.Statement // today's statements (By, Verb, Target, Role, Result)
	HasTalk    bool
}

// Error is a problem with a scenario file itself (not a failed expectation):
// bad JSON, an unknown role, verb, option or key, a seat off the table.
type Error struct {
	Path string
	Step int // 1-based; 0 when the problem is outside the steps
	Msg  string
}

func (e *Error) Error() string {
	if e.Step > 0 {
		return fmt.Sprintf("%s: step %d: %s", e.Path, e.Step, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Path, e.Msg)
}

// fileKeys and stepKeys are the keys the format knows; "comment" is free text.
var (
	fileKeys = map[string]bool{"name": true, "roles": true, "options": true, "seed": true, "steps": true, "comment": true}
	stepKeys = map[string]bool{"by": true, "act": true, "target": true, "result": true, "role": true, "reject": true, "yes": true, "times": true, "expect": true, "comment": true}
	expKeys  = map[string]bool{"phase": true, "round": true, "alive": true, "speaker": true, "candidates": true, "winner": true, "talk": true}
	talkKeys = map[string]bool{"by": true, "act": true, "target": true, "role": true, "result": true}
)

func unknownKey(m map[string]json.RawMessage, known map[string]bool) string {
	var bad []string
	for k := range m {
		if !known[k] {
			bad = append(bad, k)
		}
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		return bad[0]
	}
	return ""
}

// Parse reads one scenario file's bytes. path names the file in errors.
func Parse(path string, data []byte) (*Scenario, error) {
	ferr := func(step int, format string, a ...any) error {
		return &Error{Path: path, Step: step, Msg: fmt.Sprintf(format, a...)}
	}
	var top map[string]json.RawMessage
	if err := strictUnmarshal(data, &top); err != nil {
		return nil, ferr(0, "not valid JSON: %s", jsonErr(data, err))
	}
	if k := unknownKey(top, fileKeys); k != "" {
		return nil, ferr(0, "unknown key %q", k)
	}
	sc := &Scenario{Path: path, Rules: engine.DefaultRules()}
	if raw, ok := top["name"]; ok {
		if err := json.Unmarshal(raw, &sc.Name); err != nil {
			return nil, ferr(0, "name: not a string")
		}
	}
	if sc.Name == "" {
		sc.Name = path
	}
	var roles []string
	if err := json.Unmarshal(top["roles"], &roles); err != nil || len(roles) == 0 {
		return nil, ferr(0, "roles: a list of role names is required")
	}
	for i, name := range roles {
		r, ok := engine.ParseRole(name)
		if !ok {
			return nil, ferr(0, "roles: seat %d: unknown role %q (citizen, detective, doctor, mafia, don, maniac)", i+1, name)
		}
		sc.Roles = append(sc.Roles, r)
	}
	if _, err := engine.SetupOf(sc.Roles).Validate(); err != nil {
		code := ""
		if e, ok := err.(*engine.Error); ok {
			code = " (" + string(e.Code) + ")"
		}
		return nil, ferr(0, "roles: not a valid setup: %s%s", locale.New(locale.En).Refusal(err), code)
	}
	if raw, ok := top["options"]; ok {
		var opts map[string]json.RawMessage
		if err := json.Unmarshal(raw, &opts); err != nil {
			return nil, ferr(0, "options: not an object")
		}
		names := make([]string, 0, len(opts))
		for k := range opts {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			v := strings.Trim(string(bytes.TrimSpace(opts[k])), `"`)
			if err := sc.Rules.Set(k, v); err != nil {
				e := err.(*engine.Error)
				if e.Code == engine.CodeUnknownOption {
					return nil, ferr(0, "options: unknown option %q", k)
				}
				return nil, ferr(0, "options: %s has no value %s", k, opts[k])
			}
		}
	}
	if raw, ok := top["seed"]; ok {
		if err := json.Unmarshal(raw, &sc.Seed); err != nil {
			return nil, ferr(0, "seed: not a non-negative integer")
		}
	}
	var steps []map[string]json.RawMessage
	if err := json.Unmarshal(top["steps"], &steps); err != nil || len(steps) == 0 {
		return nil, ferr(0, "steps: a non-empty list of step objects is required")
	}
	n := engine.Seat(len(sc.Roles))
	for i, raw := range steps {
		st, err := parseStep(raw, i+1, n)
		if err != nil {
			return nil, ferr(i+1, "%s", err.Error())
		}
		sc.Steps = append(sc.Steps, st)
	}
	return sc, nil
}

// jsonErr names the line and column of a JSON syntax error.
func jsonErr(data []byte, err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := 1, 1
		for _, b := range data[:min(int(se.Offset), len(data))] {
			if b == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
		}
		return fmt.Sprintf("line %d, column %d: %v", line, col, err)
	}
	return err.Error()
}

// strictUnmarshal decodes one JSON value and refuses trailing data.
func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("data after the object")
	}
	return nil
}

func seatField(raw json.RawMessage, key string, n engine.Seat, allowZero bool) (engine.Seat, error) {
	var x int
	if err := json.Unmarshal(raw, &x); err != nil {
		return 0, fmt.Errorf("%s: not a seat number", key)
	}
	lo := 1
	if allowZero {
		lo = 0
	}
	if x < lo || x > int(n) {
		return 0, fmt.Errorf("%s: seat %d is off the table (seats 1..%d)", key, x, n)
	}
	return engine.Seat(x), nil
}

func parseStep(m map[string]json.RawMessage, idx int, n engine.Seat) (Step, error) {
	st := Step{Index: idx}
	if k := unknownKey(m, stepKeys); k != "" {
		return st, fmt.Errorf("unknown key %q", k)
	}
	if raw, ok := m["expect"]; ok {
		if len(m) > 1 && !(len(m) == 2 && m["comment"] != nil) {
			return st, fmt.Errorf("an expect step has no other keys")
		}
		st.Kind = StepExpect
		ex, err := parseExpect(raw, n)
		st.Expect = ex
		return st, err
	}
	var act string
	if err := json.Unmarshal(m["act"], &act); err != nil {
		return st, fmt.Errorf(`a step needs "act" or "expect"`)
	}
	if act == "next" {
		st.Kind, st.Times = StepNext, 1
		for k := range m {
			if k != "act" && k != "times" && k != "comment" {
				return st, fmt.Errorf("next takes only \"times\", not %q", k)
			}
		}
		if raw, ok := m["times"]; ok {
			if err := json.Unmarshal(raw, &st.Times); err != nil || st.Times < 1 || st.Times > 10000 {
				return st, fmt.Errorf("times: a count from 1 is required")
			}
		}
		return st, nil
	}
	verb, ok := engine.ParseVerb(act)
	if !ok || verb == engine.Next {
		return st, fmt.Errorf("unknown verb %q", act)
	}
	st.Kind = StepAction
	st.Cmd.Verb = verb
	raw, ok := m["by"]
	if !ok {
		return st, fmt.Errorf("%s needs \"by\"", act)
	}
	by, err := seatField(raw, "by", n, verb == engine.Foul)
	if err != nil {
		return st, err
	}
	if verb == engine.Foul && by != engine.Host {
		return st, fmt.Errorf("foul is the host's: \"by\" must be 0")
	}
	st.Cmd.By = by
	if verb.HasTarget() {
		raw, ok := m["target"]
		if !ok {
			return st, fmt.Errorf("%s needs \"target\"", act)
		}
		if st.Cmd.Target, err = seatField(raw, "target", n, false); err != nil {
			return st, err
		}
	} else if _, ok := m["target"]; ok {
		return st, fmt.Errorf("%s takes no target", act)
	}
	if raw, ok := m["yes"]; ok {
		if verb != engine.AllVote {
			return st, fmt.Errorf("\"yes\" belongs to all_vote")
		}
		if err := json.Unmarshal(raw, &st.Cmd.Yes); err != nil {
			return st, fmt.Errorf("yes: true or false")
		}
	} else if verb == engine.AllVote {
		return st, fmt.Errorf("all_vote needs \"yes\": true or false")
	}
	if raw, ok := m["result"]; ok {
		if verb != engine.Check && verb != engine.Report {
			return st, fmt.Errorf("\"result\" belongs to check or report")
		}
		r, err := resultField(raw)
		if err != nil {
			return st, err
		}
		if verb == engine.Check {
			st.Result = r
		} else {
			st.Cmd.Result = r
		}
	} else if verb == engine.Report {
		return st, fmt.Errorf("report needs \"result\": the answer reported")
	}
	if raw, ok := m["role"]; ok {
		if verb != engine.Claim {
			return st, fmt.Errorf("\"role\" belongs to claim")
		}
		if st.Cmd.Role, err = roleField(raw); err != nil {
			return st, err
		}
	} else if verb == engine.Claim {
		return st, fmt.Errorf("claim needs \"role\": the card claimed")
	}
	if raw, ok := m["reject"]; ok {
		if err := json.Unmarshal(raw, &st.Reject); err != nil {
			return st, fmt.Errorf("reject: true or false")
		}
	}
	if _, ok := m["times"]; ok {
		return st, fmt.Errorf("\"times\" belongs to next")
	}
	return st, nil
}

func resultField(raw json.RawMessage) (engine.Result, error) {
	var s string
	_ = json.Unmarshal(raw, &s)
	r, ok := engine.ParseResult(s)
	if !ok {
		return 0, fmt.Errorf("result: unknown answer %s (mafia, not_mafia, maniac, detective, not_detective)", raw)
	}
	return r, nil
}

func roleField(raw json.RawMessage) (engine.Role, error) {
	var s string
	_ = json.Unmarshal(raw, &s)
	r, ok := engine.ParseRole(s)
	if !ok {
		return 0, fmt.Errorf("role: unknown card %s (citizen, detective, doctor, mafia, don, maniac)", raw)
	}
	return r, nil
}

// parseTalk reads expect.talk: today's statements, each written as the
// step that made it ({"by", "act", "target", "role", "result"}).
func parseTalk(raw json.RawMessage, n engine.Seat) ([]engine.Statement, error) {
	var items []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("expect.talk: a list of statements")
	}
	out := make([]engine.Statement, 0, len(items))
	for i, m := range items {
		if k := unknownKey(m, talkKeys); k != "" {
			return nil, fmt.Errorf("expect.talk[%d]: unknown key %q", i, k)
		}
		var st engine.Statement
		var act string
		_ = json.Unmarshal(m["act"], &act)
		v, ok := engine.ParseVerb(act)
		if !ok || !v.IsStatement() {
			return nil, fmt.Errorf("expect.talk[%d]: %q is no statement (claim, report, suspect, vouch, will_nominate)", i, act)
		}
		st.Verb = v
		var err error
		if st.By, err = seatField(m["by"], fmt.Sprintf("expect.talk[%d].by", i), n, false); err != nil {
			return nil, err
		}
		if raw, ok := m["target"]; ok {
			if st.Target, err = seatField(raw, fmt.Sprintf("expect.talk[%d].target", i), n, false); err != nil {
				return nil, err
			}
		}
		if raw, ok := m["role"]; ok {
			if st.Role, err = roleField(raw); err != nil {
				return nil, err
			}
		}
		if raw, ok := m["result"]; ok {
			if st.Result, err = resultField(raw); err != nil {
				return nil, err
			}
		}
		out = append(out, st)
	}
	return out, nil
}

func parseSeats(raw json.RawMessage, key string, n engine.Seat) ([]engine.Seat, error) {
	var xs []json.RawMessage
	if err := json.Unmarshal(raw, &xs); err != nil {
		return nil, fmt.Errorf("expect.%s: a list of seats", key)
	}
	out := make([]engine.Seat, 0, len(xs))
	for _, x := range xs {
		s, err := seatField(x, "expect."+key, n, false)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func parseExpect(raw json.RawMessage, n engine.Seat) (Expect, error) {
	var ex Expect
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return ex, fmt.Errorf("expect: an object")
	}
	if k := unknownKey(m, expKeys); k != "" {
		return ex, fmt.Errorf("expect: unknown key %q", k)
	}
	var err error
	if raw, ok := m["phase"]; ok {
		var s string
		_ = json.Unmarshal(raw, &s)
		p, ok := engine.ParsePhase(s)
		if !ok {
			return ex, fmt.Errorf("expect.phase: unknown phase %s", raw)
		}
		ex.Phase = &p
	}
	if raw, ok := m["round"]; ok {
		var r int
		if err := json.Unmarshal(raw, &r); err != nil || r < 1 {
			return ex, fmt.Errorf("expect.round: a round number from 1")
		}
		ex.Round = &r
	}
	if raw, ok := m["alive"]; ok {
		if ex.Alive, err = parseSeats(raw, "alive", n); err != nil {
			return ex, err
		}
		ex.HasAlive = true
	}
	if raw, ok := m["candidates"]; ok {
		if ex.Candidates, err = parseSeats(raw, "candidates", n); err != nil {
			return ex, err
		}
		ex.HasCands = true
	}
	if raw, ok := m["speaker"]; ok {
		s, err := seatField(raw, "expect.speaker", n, false)
		if err != nil {
			return ex, err
		}
		ex.Speaker = &s
	}
	if raw, ok := m["winner"]; ok {
		w := engine.WinnerNone
		if string(bytes.TrimSpace(raw)) != "null" {
			var s string
			_ = json.Unmarshal(raw, &s)
			var ok bool
			if w, ok = engine.ParseWinner(s); !ok {
				return ex, fmt.Errorf("expect.winner: unknown result %s (town, mafia, maniac, draw or null)", raw)
			}
		}
		ex.Winner = &w
	}
	if raw, ok := m["talk"]; ok {
		if ex.Talk, err = parseTalk(raw, n); err != nil {
			return ex, err
		}
		ex.HasTalk = true
	}
	return ex, nil
}

func seatsString(s []engine.Seat) string {
	parts := make([]string, len(s))
	for i, x := range s {
		parts[i] = strconv.Itoa(int(x))
	}
	return "[" + strings.Join(parts, ",") + "]"
}
