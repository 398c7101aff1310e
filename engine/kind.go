package engine

// Kind says what sort of refusal a code is, so that the layers that answer
// requests (an HTTP status, a WebSocket close) answer every code of a kind
// alike. Every code has one, declared next to it: the engine's own are all
// KindInvalid (a rule refuses the request as asked); the room's, the
// server's, the assistant's and the record's are in their packages' Kinds.
type Kind uint8

// The kinds of refusal.
const (
	KindNone        Kind = iota // not a declared code
	KindInvalid                 // the request breaks a rule or is malformed: as asked, never
	KindUnsupported             // the request's form is not one taken (not JSON)
	KindForbidden               // the client may not do this (no token, not the host, blocked)
	KindNotFound                // no such table, game or path
	KindConflict                // the state does not allow it now (already started, taken, not over)
	KindGone                    // the thing existed and is gone for good (expired, set aside)
	KindTooMany                 // a limit of the client's is reached: later, or less
	KindBusy                    // the server or a table is too busy now: try again
	KindInternal                // the server failed
)

var kindNames = [...]string{"none", "invalid", "unsupported", "forbidden", "not_found", "conflict", "gone",
	"too_many", "busy", "internal"}

// String names the kind as the code's tables and tests spell it.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "?"
}

// Kinds are the kinds of the engine's own codes: every one is invalid.
var Kinds = func() map[Code]Kind {
	m := map[Code]Kind{}
	for _, c := range engineCodes {
		m[c] = KindInvalid
	}
	return m
}()
