package account

import (
	"mafia/admission"
	"mafia/engine"
)

// The account's refusals (catalog id "error.<code>").
const (
	// CodeBadAccountName: a name that is empty, too long, or holds
	// characters a name may not (N is the longest).
	CodeBadAccountName engine.Code = "bad_account_name"
	// CodeNameReserved: a name a seat may not take (Config.SeatName: one
	// that reads as a server's bot's, "Bot 3").
	CodeNameReserved engine.Code = "name_reserved"
	// CodeNameLookalike: the name reads as another account's (their keys
	// or shapes meet: internal/namekey) without being the same name.
	CodeNameLookalike engine.Code = "name_lookalike"
	// CodeNameMixedScripts: the name's letters are of more than one
	// script (Latin with Cyrillic, say).
	CodeNameMixedScripts engine.Code = "name_mixed_scripts"
	// CodeNameForbidden: the name is a word the site keeps (admin, system,
	// host, mafia, bot…), however it is written.
	CodeNameForbidden engine.Code = "name_forbidden"
	// CodeNameTaken: another account has this name (compared after NFKC
	// and case folding).
	CodeNameTaken engine.Code = "name_taken"
	// CodeWeakPassword: a password shorter than MinPassword (N).
	CodeWeakPassword engine.Code = "weak_password"
	// CodePasswordTooLong: a password longer than MaxPassword (N).
	CodePasswordTooLong engine.Code = "password_too_long"
	// CodeBadLogin: the name and password do not match an account. An
	// unknown name gets the same refusal as a wrong password.
	CodeBadLogin engine.Code = "bad_login"
	// CodeLoginLimited: too many login attempts for this name or from this
	// address; try again later.
	CodeLoginLimited engine.Code = "login_limited"
	// CodeLoginBusy: the server is hashing as many passwords as it may and
	// its queue has no place for this attempt; try again in a few seconds
	// (Retry-After).
	CodeLoginBusy engine.Code = "login_busy"
	// CodeNotLoggedIn: no login, or one that has ended (logged out,
	// expired, ended by a change of password).
	CodeNotLoggedIn engine.Code = "not_logged_in"
	// CodeBotCredential: a bot's token used for what only its owner's
	// login may do (account actions).
	CodeBotCredential engine.Code = "bot_credential"
	// CodeTooManyBots: the account owns as many bots as it may (N).
	CodeTooManyBots engine.Code = "too_many_bots"
	// CodeNotYourBot: no bot of this account has that name.
	CodeNotYourBot engine.Code = "not_your_bot"
	// CodeCannotKeep: the game asked to be kept is not over, or the seat
	// token given is not a guest's seat of it.
	CodeCannotKeep engine.Code = "cannot_keep"
)

// Kinds are the kinds of the package's codes.
var Kinds = map[engine.Code]engine.Kind{
	CodeBadAccountName: engine.KindInvalid, CodeNameTaken: engine.KindConflict, CodeNameReserved: engine.KindInvalid,
	CodeNameLookalike: engine.KindConflict, CodeNameMixedScripts: engine.KindInvalid, CodeNameForbidden: engine.KindInvalid, CodeWeakPassword: engine.KindInvalid, CodePasswordTooLong: engine.KindInvalid,
	CodeBadLogin: engine.KindForbidden, CodeLoginLimited: engine.KindTooMany, CodeLoginBusy: engine.KindBusy, CodeNotLoggedIn: engine.KindForbidden,
	CodeBotCredential: engine.KindForbidden, CodeTooManyBots: engine.KindConflict, CodeNotYourBot: engine.KindNotFound,
	CodeCannotKeep: engine.KindForbidden, admission.CodeBarred: engine.KindForbidden,
}

func refuse(c engine.Code) error { return &engine.Error{Code: c} }

var errLoginBusy = &engine.Error{Code: CodeLoginBusy}

// errLoginLimited is the refusal of an address whose attempts are spent.
var errLoginLimited = &engine.Error{Code: CodeLoginLimited}

var nameError = engine.Error{Code: CodeBadAccountName, N: MaxName}
