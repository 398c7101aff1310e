package engine

// EventKind says what happened.
type EventKind uint8

// The events. Each one's fields are listed beside it; its audience is fixed
// by its kind (see Audience).
const (
	EvNone          EventKind = iota
	EvGameStarted             // Rules, Seed, Count players, RoleOf each seat (secret: redacted per seat)
	EvNightBegan              // Round
	EvMafiaChose              // Actor named Target (0: nobody) as the victim; mafia only
	EvChecked                 // Actor checked Target, got Result; checker only
	EvHealed                  // Actor healed Target; doctor only
	EvShot                    // Actor shot at Target; maniac only
	EvSkipped                 // Actor does nothing more tonight; actor only
	EvNightEnded              // Set: the night's victims (announced in the morning)
	EvPlayerOut               // Target left the game by Cause; Role/Team if revealed
	EvLastWords               // Target's last words begin
	EvDayBegan                // Round; Actor: the seat the day's speeches start from
	EvSpeechSkipped           // Target's speech is lost through fouls
	EvSpeech                  // Target's speech begins
	EvNominated               // Actor nominated Target
	EvDefence                 // Target's defence begins
	EvVoteBegan               // Phase (vote or revote); PerSeat lists the candidates (ListAt), Count of them
	EvVoteCast                // Actor voted for Target; voter only until the vote closes
	EvVoteClosed              // CountedFor(voter) = the candidate counted for that voter (abstentions on the last)
	EvTie                     // Phase: the vote it ends (vote, or revote: a second tie); PerSeat lists the tied candidates (ListAt) in nomination order, Count of them
	EvTieSpeech               // Target's tie speech begins
	EvAllVoteBegan            // "shall all of them leave?" is asked
	EvAllVoteCast             // Actor answered Yes; voter only until it closes
	EvAllVoteClosed           // Set: who said yes; Yes: whether all leave
	EvNobodyLeaves            // the day ends with no elimination
	EvFouled                  // Target got a foul; Count: their fouls now
	EvGameEnded               // Winner; RoleOf: every seat's role; Cause: CauseRoundLimit for a game stopped at round_limit
	EvStatement               // Actor made a statement on their floor (Phase): Verb, and by Verb Target, Role (a claim) or Result (a report)
	EvVoteMade                // Actor has voted in the vote, revote or all-vote (Phase), without what: public at once
	numEventKinds
)

var eventNames = [numEventKinds]string{"", "game_started", "night_began", "mafia_chose", "checked", "healed", "shot", "skipped",
	"night_ended", "player_out", "last_words", "day_began", "speech_skipped", "speech", "nominated", "defence",
	"vote_began", "vote_cast", "vote_closed", "tie", "tie_speech", "all_vote_began", "all_vote_cast",
	"all_vote_closed", "nobody_leaves", "fouled", "game_ended", "statement", "vote_made"}

// String returns the kind's name.
func (k EventKind) String() string {
	if k < numEventKinds {
		return eventNames[k]
	}
	return "?"
}

// ParseEventKind reads a kind's name.
func ParseEventKind(s string) (EventKind, bool) {
	for k := EvGameStarted; k < numEventKinds; k++ {
		if eventNames[k] == s {
			return k, true
		}
	}
	return EvNone, false
}

// BeginsStep reports whether an event of this kind begins a new step of
// the game: the night, a turn to speak (last words, a speech, a defence, a
// tie speech), a vote, revote or all-vote, and the end. Every one of them is
// public (Audience), so a count of them is the same for every seat.
func (k EventKind) BeginsStep() bool { return stepKinds&(1<<k) != 0 }

// stepKinds is the set of the kinds that begin a step, a bit each: apply
// asks BeginsStep of every event, so it is one test, not a switch.
const stepKinds = 1<<EvNightBegan | 1<<EvLastWords | 1<<EvSpeech | 1<<EvDefence | 1<<EvVoteBegan |
	1<<EvTieSpeech | 1<<EvAllVoteBegan | 1<<EvGameEnded

// Cause is why a player left the game (or, on GameEnded, why a game ended
// that no side won: CauseRoundLimit).
type Cause uint8

// The causes.
const (
	CauseNone       Cause = iota
	CauseNight            // killed at night
	CauseVote             // voted out
	CauseAll              // the town sent all the tied candidates away
	CauseFouls            // removed by fouls
	CauseRoundLimit       // GameEnded: the game reached the end of round round_limit
	numCauses
)

var causeNames = [numCauses]string{"", "night", "vote", "all", "fouls", "round_limit"}

// String returns the cause's name.
func (c Cause) String() string {
	if c < numCauses {
		return causeNames[c]
	}
	return "?"
}

// Event is one thing that happened. It is a plain value (no pointers) so that
// a game emits events without allocating; which fields mean something depends
// on Kind (see the kinds' comments).
type Event struct {
	Kind    EventKind
	Phase   Phase
	Round   uint16
	Actor   Seat
	Target  Seat
	Result  Result
	Cause   Cause
	Winner  Winner
	Role    Role
	Team    Team
	Yes     bool
	Verb    Verb // EvStatement: what was said
	Count   uint8
	Set     SeatSet
	PerSeat [MaxSeats + 1]uint8 // a per-seat table or a list, by Kind
	Rules   Ruleset             // before Seed: the byte-sized fields packed, an Event is 64 bytes (72 the other way round)
	Seed    uint64
}

// Audience is who may see an event.
type Audience uint8

// The audiences.
const (
	AudPublic Audience = iota // everyone, spectators included
	AudActor                  // the acting seat only (and the host)
	AudMafia                  // the mafia's team only (and the host)
	AudSeats                  // GameStarted: each seat gets its own redacted copy
)

// Audience returns who may see the event.
func (e *Event) Audience() Audience {
	switch e.Kind {
	case EvGameStarted:
		return AudSeats
	case EvMafiaChose:
		return AudMafia
	case EvChecked, EvHealed, EvShot, EvSkipped, EvVoteCast, EvAllVoteCast:
		return AudActor
	}
	return AudPublic
}

// RoleOf is seat s's card in an EvGameStarted (0 where the seat's copy is
// redacted) or an EvGameEnded.
func (e *Event) RoleOf(s Seat) Role { return Role(e.PerSeat[s]) }

// SetRoleOf sets seat s's card of an EvGameStarted or EvGameEnded.
func (e *Event) SetRoleOf(s Seat, r Role) { e.PerSeat[s] = uint8(r) }

// CountedFor is the candidate an EvVoteClosed counted voter's vote for (0:
// none, the voter was not voting).
func (e *Event) CountedFor(voter Seat) Seat { return Seat(e.PerSeat[voter]) }

// SetCountedFor sets the candidate counted for voter in an EvVoteClosed.
func (e *Event) SetCountedFor(voter, candidate Seat) { e.PerSeat[voter] = uint8(candidate) }

// ListAt is the i-th seat (from 0) of a list-shaped payload (EvTie,
// EvVoteBegan: Count seats), without the allocation of List.
func (e *Event) ListAt(i int) Seat { return Seat(e.PerSeat[i]) }

// SetListAt sets the i-th seat of a list-shaped payload (Count is the
// caller's).
func (e *Event) SetListAt(i int, s Seat) { e.PerSeat[i] = uint8(s) }

// List returns the seats listed in a list-shaped payload (EvTie, EvVoteBegan).
func (e *Event) List() []Seat {
	out := make([]Seat, e.Count)
	for i := range out {
		out[i] = Seat(e.PerSeat[i])
	}
	return out
}
