package record

import "mafia/engine"

// where follows an event log's round and step, for events that do not carry
// them (a foul, a player leaving).
type where struct {
	round int
	phase engine.Phase
}

// see moves on with an event; call it before reading round and phase for
// that event.
func (w *where) see(e engine.Event) {
	switch e.Kind {
	case engine.EvNightBegan:
		w.round, w.phase = int(e.Round), engine.PhaseNight
	case engine.EvLastWords:
		w.phase = engine.PhaseLastWords
	case engine.EvDayBegan, engine.EvSpeech:
		w.phase = engine.PhaseSpeech
	case engine.EvDefence:
		w.phase = engine.PhaseDefence
	case engine.EvVoteBegan:
		w.phase = e.Phase
	case engine.EvTieSpeech:
		w.phase = engine.PhaseTieSpeech
	case engine.EvAllVoteBegan:
		w.phase = engine.PhaseAllVote
	case engine.EvGameEnded:
		w.phase = engine.PhaseEnded
	}
}
