package engine

import (
	"fmt"
	"strconv"
)

// Code names why the engine refused something. Codes are stable: clients and
// message catalogs key on them (catalog id "error.<code>").
type Code string

// Refusals of a command.
const (
	CodeGameOver         Code = "game_over"          // the game has ended
	CodeUnknownVerb      Code = "unknown_verb"       // no such command
	CodeNoSuchSeat       Code = "no_such_seat"       // Seat: the seat number is not at this table
	CodeActorOut         Code = "actor_out"          // Seat: the actor is out of the game
	CodeTargetOut        Code = "target_out"         // Target: the target is out of the game
	CodeWrongPhase       Code = "wrong_phase"        // Phase: this command does not fit the current step
	CodeNotYourRole      Code = "not_your_role"      // Seat: the actor's role has no such action
	CodeMeetingNight     Code = "meeting_night"      // nobody acts on the acquaintance night
	CodeAlreadyActed     Code = "already_acted"      // Seat: this action was already taken tonight
	CodeTargetIsMafia    Code = "target_is_mafia"    // Target: the mafia may not choose a mafioso
	CodeCheckSelf        Code = "check_self"         // nobody may check themselves
	CodeShootSelf        Code = "shoot_self"         // the maniac may not shoot himself
	CodeManiacNightOne   Code = "maniac_night_one"   // the maniac shoots from night 2 on
	CodeNoShotsLeft      Code = "no_shots_left"      // N: both shots are spent
	CodeAlreadyHealed    Code = "already_healed"     // Target: healed once already this game
	CodeHealedLastNight  Code = "healed_last_night"  // Target: healed the night before
	CodeNotSpeaker       Code = "not_speaker"        // Seat: it is not this seat's speech
	CodeAlreadyNominated Code = "already_nominated"  // Seat: one nomination per speech
	CodeNominateSelf     Code = "nominate_self"      // a player may not nominate themselves
	CodeAlreadyCandidate Code = "already_candidate"  // Target: already nominated
	CodeNotCandidate     Code = "not_candidate"      // Target: not a candidate in this vote
	CodeAlreadyVoted     Code = "already_voted"      // Seat: a vote is final
	CodeHostOnly         Code = "host_only"          // only the host may do this
	CodeTooManySeats     Code = "too_many_seats"     // N: more players than allowed
	CodeTooFewSeats      Code = "too_few_seats"      // N: fewer players than allowed
	CodeNoMafia          Code = "no_mafia"           // a setup needs at least one mafioso
	CodeMafiaMajority    Code = "mafia_majority"     // N: mafiosi must be fewer than everyone else
	CodeDuplicateRole    Code = "duplicate_role"     // Role: at most one of this role
	CodeUnknownRole      Code = "unknown_role"       // Name: no such role
	CodeUnknownOption    Code = "unknown_option"     // Name: no such option
	CodeBadOptionValue   Code = "bad_option_value"   // Name, Value: the option has no such value
	CodeBadRulesCode     Code = "bad_rules_code"     // Value: no ruleset is written so (RulesCode)
	CodeBadLog           Code = "bad_log"            // N: event N of a log cannot be replayed
	CodeManiacSmallTable Code = "maniac_small_table" // a warning: a maniac below 11 players
)

// Refusals of a statement (statement.go).
const (
	CodeTooManyStatements Code = "too_many_statements" // N: the statements one floor allows are made
	CodeBadClaim          Code = "bad_claim"           // a claim names no card
	CodeReportSelf        Code = "report_self"         // nobody reports a check of themselves
	CodeSuspectSelf       Code = "suspect_self"        // nobody suspects themselves
	CodeVouchSelf         Code = "vouch_self"          // nobody vouches for themselves
	CodeBadResult         Code = "bad_result"          // a report gives an answer no Detective gets under these rules
	CodeNoBestMove        Code = "no_best_move"        // Seat: a best move is the first night's victim's, in their last words
	CodeBestMoveMade      Code = "best_move_made"      // Seat: a best move is made once
	CodeBadGuess          Code = "bad_guess"           // N: a best move names N different seats, not one's own
)

// Error is a refusal: a code and the parameters a sentence needs. A refused
// command changes nothing. Render it for people with package locale.
type Error struct {
	Code   Code
	Seat   Seat   // the actor, when it matters
	Target Seat   // the target, when it matters
	Phase  Phase  // the current step, for CodeWrongPhase
	Role   Role   // for CodeDuplicateRole
	N      int    // a number: shots, players, a limit, an event index
	Name   string // an option or role name as given
	Value  string // an option value as given
}

// Error returns a short English description for logs. People see the
// catalog sentence instead.
func (e *Error) Error() string {
	s := "engine: " + string(e.Code)
	if e.Seat != 0 {
		s += " seat=" + strconv.Itoa(int(e.Seat))
	}
	if e.Target != 0 {
		s += " target=" + strconv.Itoa(int(e.Target))
	}
	if e.Phase != PhaseNone {
		s += " phase=" + e.Phase.String()
	}
	if e.Role != RoleNone {
		s += " role=" + e.Role.String()
	}
	if e.N != 0 {
		s += " n=" + strconv.Itoa(e.N)
	}
	if e.Name != "" {
		s += fmt.Sprintf(" name=%q", e.Name)
	}
	if e.Value != "" {
		s += fmt.Sprintf(" value=%q", e.Value)
	}
	return s
}

// Params returns the error's parameters by name, for message templates.
func (e *Error) Params() map[string]any {
	return map[string]any{
		"Seat": int(e.Seat), "Target": int(e.Target), "Phase": e.Phase.String(),
		"Role": e.Role.String(), "N": e.N, "Name": e.Name, "Value": e.Value,
	}
}

// engineCodes lists every code of the engine (Kinds gives each its kind;
// a test checks the list against the declarations).
var engineCodes = []Code{
	CodeGameOver,
	CodeUnknownVerb,
	CodeNoSuchSeat,
	CodeActorOut,
	CodeTargetOut,
	CodeWrongPhase,
	CodeNotYourRole,
	CodeMeetingNight,
	CodeAlreadyActed,
	CodeTargetIsMafia,
	CodeCheckSelf,
	CodeShootSelf,
	CodeManiacNightOne,
	CodeNoShotsLeft,
	CodeAlreadyHealed,
	CodeHealedLastNight,
	CodeNotSpeaker,
	CodeAlreadyNominated,
	CodeNominateSelf,
	CodeAlreadyCandidate,
	CodeNotCandidate,
	CodeAlreadyVoted,
	CodeHostOnly,
	CodeTooManySeats,
	CodeTooFewSeats,
	CodeNoMafia,
	CodeMafiaMajority,
	CodeDuplicateRole,
	CodeUnknownRole,
	CodeUnknownOption,
	CodeBadOptionValue,
	CodeBadRulesCode,
	CodeBadLog,
	CodeManiacSmallTable,
	CodeTooManyStatements,
	CodeBadClaim,
	CodeReportSelf,
	CodeSuspectSelf,
	CodeVouchSelf,
	CodeBadResult,
	CodeNoBestMove,
	CodeBestMoveMade,
	CodeBadGuess,
}
