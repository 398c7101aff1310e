package room

// This file holds the room's refusal codes, beside the engine's (each is a
// catalog id "error.<code>" in locale/catalog), and their kinds, which the
// server's HTTP and WebSocket answers follow.

import (
	"strconv"

	"mafia/admission"
	"mafia/engine"
)

// Room error codes, beside the engine's (catalog id "error.<code>").
const (
	CodeBusy engine.Code = "busy"
	// CodeRatedTable: a rated table seats accounts and bot accounts only
	// (a guest's join, the server's bots, a sandbox are refused).
	CodeRatedTable = admission.CodeRatedTable
	// CodeOwnSeatLimit: at a rated table a player and the bot accounts
	// they own already take N seats (Config.SeatsPerAddress).
	CodeOwnSeatLimit               = admission.CodeOwnSeatLimit
	CodeBadToken       engine.Code = "bad_token"
	CodeTableFull      engine.Code = "table_full"
	CodeSeatTaken      engine.Code = "seat_taken"
	CodeNotStarted     engine.Code = "not_started"
	CodeAlreadyStarted engine.Code = "already_started"
	CodeNotFull        engine.Code = "not_full"
	CodeNotHost        engine.Code = "not_host"
	CodeSpectator      engine.Code = "spectator"
	CodeChatClosed     engine.Code = "chat_closed"
	CodeBadRequest     engine.Code = "bad_request"
	CodeInternal       engine.Code = "internal"
	CodePaused         engine.Code = "paused"
	CodeNameRequired   engine.Code = "name_required"
	CodeStopped        engine.Code = "stopped"
	CodeNotOver        engine.Code = "not_over"
	// CodeKicked: the host took the connection's seat away (the client is
	// blocked from the table, see CodeBlocked).
	CodeKicked engine.Code = "kicked"
	// CodeSeatLeft: the connection's seat was given up (its player left,
	// perhaps from another tab).
	CodeSeatLeft engine.Code = "seat_left"
	// CodeTooSlow: the connection read too slowly; frames for it piled up
	// past the server's send queue.
	CodeTooSlow engine.Code = "too_slow"
	// CodeStaleStep refuses a message meant for a step (wire.View.Step)
	// that is not the current one.
	CodeStaleStep engine.Code = "stale_step"
	// CodeBadTiming: a step length (Name) outside MinStep..MaxStep; Value
	// is the number of milliseconds as the client gave it, N the largest.
	CodeBadTiming engine.Code = "bad_timing"
	// CodeBadBotDelay: a bot delay outside 0..MaxBotDelay; Value is the
	// number of milliseconds as given, N the largest.
	CodeBadBotDelay engine.Code = "bad_bot_delay"
	// CodeBadPace: a pace that is not one of the paces (Value, as given).
	CodeBadPace engine.Code = "bad_pace"
	// CodeBadStandIn: a stand-in's grace period outside 0..MaxStandIn;
	// Value is the number of milliseconds as given, N the largest.
	CodeBadStandIn engine.Code = "bad_stand_in"
	// CodeNameTooLong: a player's or a table's name is over N characters
	// (or over its length in bytes).
	CodeNameTooLong engine.Code = "name_too_long"
	// CodeNameBadCharacter: a name holds a character that is refused
	// (Value: U+XXXX, or 0xXX for a byte that is not UTF-8).
	CodeNameBadCharacter engine.Code = "name_bad_character"
	// CodeNameLikeBot: a player's name reads as a server bot's (Name).
	CodeNameLikeBot engine.Code = "name_like_bot"
	// CodeAlreadySeated: the client already holds a seat here (Seat), and
	// asked for another.
	CodeAlreadySeated engine.Code = "already_seated"
	// CodeSeatLimit: N seats of this table are taken from the client's
	// address already.
	CodeSeatLimit = admission.CodeSeatLimit
	// CodeBlocked: the host kicked this client (or its address) from the
	// table; it may not sit here again.
	CodeBlocked = admission.CodeBlocked
	// CodeBarred: a policy in front of the seat rules (moderation, see
	// Config.Policy) bars the client from the table.
	CodeBarred = admission.CodeBarred
	// CodeExpired: the table was left in the lobby by everyone and has
	// expired.
	CodeExpired engine.Code = "expired"
	// CodeChatBusy: more of the mafia's lines wait for the night's ticks
	// than the night has ticks left for (the server refuses with it too,
	// a table's chat at its rate).
	CodeChatBusy engine.Code = "chat_busy"
	// CodeChatFull: the table's chat holds as many lines as the store keeps
	// for one table (store.MaxChatLines, N); the line was not posted.
	CodeChatFull engine.Code = "chat_full"
)

// Kinds are the kinds of the room's codes (engine.Kind): what sort of
// refusal each is, which the server's answers follow.
var Kinds = map[engine.Code]engine.Kind{
	CodeRatedTable: engine.KindForbidden, CodeOwnSeatLimit: engine.KindForbidden,
	CodeBusy: engine.KindBusy, CodeBadToken: engine.KindForbidden, CodeTableFull: engine.KindConflict,
	CodeSeatTaken: engine.KindConflict, CodeNotStarted: engine.KindInvalid, CodeAlreadyStarted: engine.KindConflict,
	CodeNotFull: engine.KindInvalid, CodeNotHost: engine.KindForbidden, CodeSpectator: engine.KindInvalid,
	CodeChatClosed: engine.KindInvalid, CodeBadRequest: engine.KindInvalid, CodeInternal: engine.KindInternal,
	CodePaused: engine.KindInvalid, CodeNameRequired: engine.KindInvalid, CodeStopped: engine.KindInternal,
	CodeNotOver: engine.KindConflict, CodeKicked: engine.KindForbidden, CodeSeatLeft: engine.KindConflict,
	CodeTooSlow: engine.KindBusy, CodeStaleStep: engine.KindConflict, CodeBadTiming: engine.KindInvalid,
	CodeBadBotDelay: engine.KindInvalid, CodeNameTooLong: engine.KindInvalid, CodeNameBadCharacter: engine.KindInvalid,
	CodeNameLikeBot: engine.KindInvalid, CodeAlreadySeated: engine.KindConflict, CodeSeatLimit: engine.KindForbidden,
	CodeBlocked: engine.KindForbidden, CodeExpired: engine.KindGone, CodeChatBusy: engine.KindBusy,
	CodeBadPace: engine.KindInvalid, CodeBadStandIn: engine.KindInvalid,
	CodeSandboxTable: engine.KindForbidden, CodeSandboxPublic: engine.KindInvalid, CodeSandboxDealOrCard: engine.KindInvalid,
	CodeSandboxDealSize: engine.KindInvalid, CodeSandboxDealRoles: engine.KindInvalid, CodeSandboxCard: engine.KindInvalid,
	CodeSandboxNoSeat: engine.KindInvalid, CodeChatFull: engine.KindConflict, CodeMoved: engine.KindBusy,
	CodeSeatReserved: engine.KindForbidden,
}

// noSuchSeat refuses a seat number a client gave (n) that is not one of the
// table's players seats. The number is range-checked before it is narrowed
// to a Seat, and the refusal names it as it was given (Value): a number
// past 255 would otherwise wrap onto a real seat.
func noSuchSeat(n, players int) error {
	e := &engine.Error{Code: engine.CodeNoSuchSeat, N: players, Value: strconv.Itoa(n)}
	if n >= 0 && n <= 255 {
		e.Seat = engine.Seat(n)
	}
	return e
}

func errCode(c engine.Code) error { return &engine.Error{Code: c} }
