package record

import "mafia/engine"

// Kinds are the kinds of the record's codes (engine.Kind): an entry or the
// settings refused as sent are invalid; an entry for a step that has
// passed is a conflict.
var Kinds = map[engine.Code]engine.Kind{
	CodeBadSettings: engine.KindInvalid, CodeStaleStep: engine.KindConflict, CodeNothingToUndo: engine.KindInvalid,
	CodeUndoNotLast: engine.KindInvalid, codeBadRequest: engine.KindInvalid,
	CodeNoSuchEntry: engine.KindInvalid, CodeFixDoesNotFit: engine.KindConflict, CodeNotACandidate: engine.KindInvalid,
	CodeNoSuchCard: engine.KindInvalid,
}
