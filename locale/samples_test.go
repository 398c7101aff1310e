package locale

import "mafia/engine"

// refusalSamples holds at least one refusal of every engine.Code, with the
// parameters the engine gives it. coverage_test.go checks that no code is
// missing (it reads the codes from the engine's source).
var refusalSamples = []struct {
	name string
	err  *engine.Error
}{
	{"game_over", &engine.Error{Code: engine.CodeGameOver}},
	{"unknown_verb", &engine.Error{Code: engine.CodeUnknownVerb}},
	{"no_such_seat", &engine.Error{Code: engine.CodeNoSuchSeat, Seat: 12, N: 11}},
	{"actor_out", &engine.Error{Code: engine.CodeActorOut, Seat: 3}},
	{"target_out", &engine.Error{Code: engine.CodeTargetOut, Target: 5}},
	{"wrong_phase at night", &engine.Error{Code: engine.CodeWrongPhase, Phase: engine.PhaseNight}},
	{"wrong_phase in a vote", &engine.Error{Code: engine.CodeWrongPhase, Phase: engine.PhaseVote}},
	{"wrong_phase before the start", &engine.Error{Code: engine.CodeWrongPhase}},
	{"not_your_role", &engine.Error{Code: engine.CodeNotYourRole, Seat: 2}},
	{"meeting_night", &engine.Error{Code: engine.CodeMeetingNight}},
	{"already_acted", &engine.Error{Code: engine.CodeAlreadyActed, Seat: 4}},
	{"target_is_mafia", &engine.Error{Code: engine.CodeTargetIsMafia, Target: 7}},
	{"check_self", &engine.Error{Code: engine.CodeCheckSelf}},
	{"shoot_self", &engine.Error{Code: engine.CodeShootSelf}},
	{"maniac_night_one", &engine.Error{Code: engine.CodeManiacNightOne}},
	{"no_shots_left", &engine.Error{Code: engine.CodeNoShotsLeft, N: 2}},
	{"already_healed", &engine.Error{Code: engine.CodeAlreadyHealed, Target: 4}},
	{"healed_last_night", &engine.Error{Code: engine.CodeHealedLastNight, Target: 4}},
	{"not_speaker", &engine.Error{Code: engine.CodeNotSpeaker, Seat: 3}},
	{"already_nominated", &engine.Error{Code: engine.CodeAlreadyNominated, Seat: 3}},
	{"nominate_self", &engine.Error{Code: engine.CodeNominateSelf, Seat: 3}},
	{"already_candidate", &engine.Error{Code: engine.CodeAlreadyCandidate, Target: 6}},
	{"not_candidate", &engine.Error{Code: engine.CodeNotCandidate, Target: 6}},
	{"already_voted", &engine.Error{Code: engine.CodeAlreadyVoted, Seat: 3}},
	{"host_only", &engine.Error{Code: engine.CodeHostOnly}},
	{"too_many_seats", &engine.Error{Code: engine.CodeTooManySeats, N: 20}},
	{"too_many_seats for a preset", &engine.Error{Code: engine.CodeTooManySeats, N: 11}},
	{"too_few_seats", &engine.Error{Code: engine.CodeTooFewSeats, N: 3}},
	{"too_few_seats for a preset", &engine.Error{Code: engine.CodeTooFewSeats, N: 5}},
	{"no_mafia", &engine.Error{Code: engine.CodeNoMafia}},
	{"mafia_majority", &engine.Error{Code: engine.CodeMafiaMajority, N: 3}},
	{"duplicate_role", &engine.Error{Code: engine.CodeDuplicateRole, Role: engine.Detective}},
	{"unknown_role", &engine.Error{Code: engine.CodeUnknownRole, Name: "wizard"}},
	{"unknown_role in a deal", &engine.Error{Code: engine.CodeUnknownRole}},
	{"unknown_option", &engine.Error{Code: engine.CodeUnknownOption, Name: "night_length"}},
	{"bad_option_value", &engine.Error{Code: engine.CodeBadOptionValue, Name: "second_tie", Value: "sometimes"}},
	{"bad_option_value of a number", &engine.Error{Code: engine.CodeBadOptionValue, Name: "foul_limit", Value: "eleven", N: engine.MaxFoulLimit}},
	{"bad_option_value in a ruleset", &engine.Error{Code: engine.CodeBadOptionValue}},
	{"bad_rules_code", &engine.Error{Code: engine.CodeBadRulesCode, Value: "f1a1"}},
	{"bad_log", &engine.Error{Code: engine.CodeBadLog, N: 7}},
	{"maniac_small_table", &engine.Error{Code: engine.CodeManiacSmallTable}},
	{"too_many_statements", &engine.Error{Code: engine.CodeTooManyStatements, Seat: 3, N: engine.StatementsPerFloor}},
	{"too_many_statements, one", &engine.Error{Code: engine.CodeTooManyStatements, Seat: 3, N: 1}},
	{"bad_claim", &engine.Error{Code: engine.CodeBadClaim, Seat: 3}},
	{"report_self", &engine.Error{Code: engine.CodeReportSelf, Seat: 3}},
	{"suspect_self", &engine.Error{Code: engine.CodeSuspectSelf, Seat: 3}},
	{"vouch_self", &engine.Error{Code: engine.CodeVouchSelf, Seat: 3}},
	{"bad_result", &engine.Error{Code: engine.CodeBadResult, Seat: 3}},
	{"no_best_move", &engine.Error{Code: engine.CodeNoBestMove, Seat: 3}},
	{"best_move_made", &engine.Error{Code: engine.CodeBestMoveMade, Seat: 3}},
	{"bad_guess", &engine.Error{Code: engine.CodeBadGuess, Seat: 3, N: 3}},
}

// eventSamples holds every engine.EventKind at least once, seen by a
// player it is not about and, where it reads differently, by the player
// it is about (viewer).
var eventSamples = []struct {
	name   string
	e      engine.Event
	viewer engine.Seat
}{
	{"game_started to a citizen", gameStarted(4, engine.Citizen), 4},
	{"game_started to the Don", gameStarted(2, engine.Don, 6, engine.Mafioso, 9, engine.Mafioso), 2},
	{"game_started to a spectator", gameStarted(0), 0},
	{"night_began", engine.Event{Kind: engine.EvNightBegan, Round: 2}, 4},
	{"mafia_chose", engine.Event{Kind: engine.EvMafiaChose, Actor: 6, Target: 3}, 2},
	{"mafia_chose by you", engine.Event{Kind: engine.EvMafiaChose, Actor: 2, Target: 3}, 2},
	{"mafia_chose nobody", engine.Event{Kind: engine.EvMafiaChose, Actor: 6}, 2},
	{"mafia_chose nobody by you", engine.Event{Kind: engine.EvMafiaChose, Actor: 2}, 2},
	{"checked by you: mafia", engine.Event{Kind: engine.EvChecked, Actor: 3, Target: 5, Result: engine.ResultMafia}, 3},
	{"checked by you: not mafia", engine.Event{Kind: engine.EvChecked, Actor: 3, Target: 5, Result: engine.ResultNotMafia}, 3},
	{"checked by you: maniac", engine.Event{Kind: engine.EvChecked, Actor: 3, Target: 5, Result: engine.ResultManiac}, 3},
	{"checked by you: detective", engine.Event{Kind: engine.EvChecked, Actor: 2, Target: 3, Result: engine.ResultDetective}, 2},
	{"checked by you: not detective", engine.Event{Kind: engine.EvChecked, Actor: 2, Target: 5, Result: engine.ResultNotDetective}, 2},
	{"checked, to the host", engine.Event{Kind: engine.EvChecked, Actor: 3, Target: 5, Result: engine.ResultMafia}, 0},
	{"healed by you", engine.Event{Kind: engine.EvHealed, Actor: 7, Target: 4}, 7},
	{"healed, to the host", engine.Event{Kind: engine.EvHealed, Actor: 7, Target: 4}, 0},
	{"shot by you", engine.Event{Kind: engine.EvShot, Actor: 8, Target: 1}, 8},
	{"shot, to the host", engine.Event{Kind: engine.EvShot, Actor: 8, Target: 1}, 0},
	{"skipped by you", engine.Event{Kind: engine.EvSkipped, Actor: 8}, 8},
	{"skipped, to the host", engine.Event{Kind: engine.EvSkipped, Actor: 8}, 0},
	{"night_ended with victims", engine.Event{Kind: engine.EvNightEnded, Set: engine.SetOf(3, 1)}, 4},
	{"night_ended with one victim", engine.Event{Kind: engine.EvNightEnded, Set: engine.SetOf(6)}, 4},
	{"night_ended without victims", engine.Event{Kind: engine.EvNightEnded}, 4},
	{"player_out at night", engine.Event{Kind: engine.EvPlayerOut, Target: 3, Cause: engine.CauseNight}, 4},
	{"player_out at night: you", engine.Event{Kind: engine.EvPlayerOut, Target: 4, Cause: engine.CauseNight}, 4},
	{"player_out by vote", engine.Event{Kind: engine.EvPlayerOut, Target: 3, Cause: engine.CauseVote}, 4},
	{"player_out by vote: you", engine.Event{Kind: engine.EvPlayerOut, Target: 4, Cause: engine.CauseVote}, 4},
	{"player_out with all the tied", engine.Event{Kind: engine.EvPlayerOut, Target: 3, Cause: engine.CauseAll}, 4},
	{"player_out with all the tied: you", engine.Event{Kind: engine.EvPlayerOut, Target: 4, Cause: engine.CauseAll}, 4},
	{"player_out by fouls", engine.Event{Kind: engine.EvPlayerOut, Target: 3, Cause: engine.CauseFouls}, 4},
	{"player_out by fouls: you", engine.Event{Kind: engine.EvPlayerOut, Target: 4, Cause: engine.CauseFouls}, 4},
	{"player_out, role revealed", engine.Event{Kind: engine.EvPlayerOut, Target: 3, Cause: engine.CauseVote, Role: engine.Doctor, Team: engine.TeamTown}, 4},
	{"player_out, team revealed", engine.Event{Kind: engine.EvPlayerOut, Target: 3, Cause: engine.CauseNight, Team: engine.TeamMafia}, 4},
	{"last_words", engine.Event{Kind: engine.EvLastWords, Target: 3}, 4},
	{"last_words: yours", engine.Event{Kind: engine.EvLastWords, Target: 4}, 4},
	{"day_began", engine.Event{Kind: engine.EvDayBegan, Round: 2, Actor: 2}, 4},
	{"day_began with you", engine.Event{Kind: engine.EvDayBegan, Round: 1, Actor: 4}, 4},
	{"speech_skipped", engine.Event{Kind: engine.EvSpeechSkipped, Target: 5}, 4},
	{"speech_skipped: yours", engine.Event{Kind: engine.EvSpeechSkipped, Target: 4}, 4},
	{"speech", engine.Event{Kind: engine.EvSpeech, Target: 5}, 4},
	{"speech: yours", engine.Event{Kind: engine.EvSpeech, Target: 4}, 4},
	{"nominated", engine.Event{Kind: engine.EvNominated, Actor: 2, Target: 7}, 4},
	{"nominated by you", engine.Event{Kind: engine.EvNominated, Actor: 4, Target: 7}, 4},
	{"nominated: you", engine.Event{Kind: engine.EvNominated, Actor: 2, Target: 4}, 4},
	{"defence", engine.Event{Kind: engine.EvDefence, Target: 7}, 4},
	{"defence: yours", engine.Event{Kind: engine.EvDefence, Target: 4}, 4},
	{"vote_began", list(engine.Event{Kind: engine.EvVoteBegan, Phase: engine.PhaseVote}, 7, 3, 5), 4},
	{"vote_began with one candidate", list(engine.Event{Kind: engine.EvVoteBegan, Phase: engine.PhaseVote}, 7), 4},
	{"vote_began: the revote", list(engine.Event{Kind: engine.EvVoteBegan, Phase: engine.PhaseRevote}, 7, 3), 4},
	{"vote_began: the revote with one candidate", list(engine.Event{Kind: engine.EvVoteBegan, Phase: engine.PhaseRevote}, 3), 4},
	{"vote_cast by you", engine.Event{Kind: engine.EvVoteCast, Actor: 4, Target: 7}, 4},
	{"vote_cast, to the host", engine.Event{Kind: engine.EvVoteCast, Actor: 2, Target: 7}, 0},
	{"vote_made", engine.Event{Kind: engine.EvVoteMade, Actor: 2, Phase: engine.PhaseVote}, 4},
	{"vote_made by you", engine.Event{Kind: engine.EvVoteMade, Actor: 4, Phase: engine.PhaseAllVote}, 4},
	{"vote_closed", ballot(engine.PhaseVote, 1, 7, 2, 7, 3, 5, 4, 7, 5, 7, 6, 3, 7, 3), 4},
	{"vote_closed: the revote", ballot(engine.PhaseRevote, 1, 7, 2, 3, 3, 7, 4, 3), 4},
	{"tie", list(engine.Event{Kind: engine.EvTie}, 7, 3), 4},
	{"tie again, in the repeat vote", list(engine.Event{Kind: engine.EvTie, Phase: engine.PhaseRevote}, 7, 3), 4},
	{"tie_speech", engine.Event{Kind: engine.EvTieSpeech, Target: 7}, 4},
	{"tie_speech: yours", engine.Event{Kind: engine.EvTieSpeech, Target: 4}, 4},
	{"all_vote_began", engine.Event{Kind: engine.EvAllVoteBegan}, 4},
	{"all_vote_cast yes by you", engine.Event{Kind: engine.EvAllVoteCast, Actor: 4, Yes: true}, 4},
	{"all_vote_cast no by you", engine.Event{Kind: engine.EvAllVoteCast, Actor: 4}, 4},
	{"all_vote_cast yes, to the host", engine.Event{Kind: engine.EvAllVoteCast, Actor: 2, Yes: true}, 0},
	{"all_vote_cast no, to the host", engine.Event{Kind: engine.EvAllVoteCast, Actor: 2}, 0},
	{"all_vote_closed: all leave", engine.Event{Kind: engine.EvAllVoteClosed, Set: engine.SetOf(1, 2, 4, 5), Yes: true}, 4},
	{"all_vote_closed: one yes", engine.Event{Kind: engine.EvAllVoteClosed, Set: engine.SetOf(2)}, 4},
	{"all_vote_closed: too few", engine.Event{Kind: engine.EvAllVoteClosed, Set: engine.SetOf(1, 2)}, 4},
	{"all_vote_closed: nobody said yes", engine.Event{Kind: engine.EvAllVoteClosed}, 4},
	{"nobody_leaves", engine.Event{Kind: engine.EvNobodyLeaves}, 4},
	{"fouled", engine.Event{Kind: engine.EvFouled, Target: 5, Count: 1}, 4},
	{"fouled: you, the 3rd", engine.Event{Kind: engine.EvFouled, Target: 4, Count: 3}, 4},
	{"game_ended: town", gameEnded(engine.WinnerTown, 11), 4},
	{"game_ended: mafia", gameEnded(engine.WinnerMafia, 5), 4},
	{"game_ended: maniac", gameEnded(engine.WinnerManiac, 5), 4},
	{"game_ended: draw", gameEnded(engine.WinnerDraw, 5), 0},
	{"statement: claim", said(engine.Claim, 3, 0, engine.Detective, 0), 4},
	{"statement: claim by you", said(engine.Claim, 4, 0, engine.Doctor, 0), 4},
	{"statement: claim of the mafia", said(engine.Claim, 3, 0, engine.Mafioso, 0), 0},
	{"statement: report of mafia", said(engine.Report, 3, 5, 0, engine.ResultMafia), 4},
	{"statement: report of not mafia by you", said(engine.Report, 4, 5, 0, engine.ResultNotMafia), 4},
	{"statement: report of the maniac", said(engine.Report, 3, 5, 0, engine.ResultManiac), 0},
	{"statement: suspect", said(engine.Suspect, 3, 5, 0, 0), 4},
	{"statement: suspect by you", said(engine.Suspect, 4, 5, 0, 0), 4},
	{"statement: suspect of you", said(engine.Suspect, 3, 4, 0, 0), 4},
	{"statement: vouch", said(engine.Vouch, 3, 5, 0, 0), 4},
	{"statement: vouch by you", said(engine.Vouch, 4, 5, 0, 0), 4},
	{"statement: will_nominate", said(engine.WillNominate, 3, 5, 0, 0), 4},
	{"statement: will_nominate by you", said(engine.WillNominate, 4, 5, 0, 0), 4},
	{"statement: best_move", bestMoveSaid(3, 1, 5, 9), 4},
	{"statement: best_move by you", bestMoveSaid(4, 1, 5, 9), 4},
}

// said builds a statement made in a speech.
// bestMoveSaid is seat by's best move in its last words after night 1.
func bestMoveSaid(by engine.Seat, guess ...engine.Seat) engine.Event {
	return engine.Event{Kind: engine.EvStatement, Round: 1, Phase: engine.PhaseLastWords, Actor: by, Verb: engine.BestMove,
		Set: engine.SetOf(guess...)}
}

func said(v engine.Verb, by, target engine.Seat, r engine.Role, res engine.Result) engine.Event {
	return engine.Event{Kind: engine.EvStatement, Round: 2, Phase: engine.PhaseSpeech, Actor: by, Verb: v, Target: target, Role: r, Result: res}
}

// gameStarted builds a GameStarted of 11 players as seat `seat` receives
// it: its own card and the cards given in pairs (seat, role).
func gameStarted(seat engine.Seat, cards ...any) engine.Event {
	e := engine.Event{Kind: engine.EvGameStarted, Count: 11}
	if seat != 0 {
		e.PerSeat[seat] = uint8(cards[0].(engine.Role))
		for i := 1; i+1 < len(cards); i += 2 {
			e.PerSeat[cards[i].(int)] = uint8(cards[i+1].(engine.Role))
		}
	}
	return e
}

func list(e engine.Event, seats ...engine.Seat) engine.Event {
	for i, s := range seats {
		e.PerSeat[i] = uint8(s)
	}
	e.Count = uint8(len(seats))
	return e
}

// ballot builds a VoteClosed from pairs (voter, candidate).
func ballot(ph engine.Phase, pairs ...int) engine.Event {
	e := engine.Event{Kind: engine.EvVoteClosed, Phase: ph}
	for i := 0; i+1 < len(pairs); i += 2 {
		e.PerSeat[pairs[i]] = uint8(pairs[i+1])
	}
	return e
}

// gameEnded builds a GameEnded at a table of n (up to 11) from a fixed deal.
func gameEnded(w engine.Winner, n int) engine.Event {
	e := engine.Event{Kind: engine.EvGameEnded, Winner: w}
	roles := []engine.Role{engine.Citizen, engine.Don, engine.Detective, engine.Citizen, engine.Mafioso,
		engine.Doctor, engine.Citizen, engine.Maniac, engine.Mafioso, engine.Citizen, engine.Citizen}
	for i, r := range roles[:n] {
		e.PerSeat[i+1] = uint8(r)
	}
	return e
}
