// Package account is who a player is across tables: accounts with a
// unique name and a password, their logins (sessions), and the bots an
// account owns, each with a token of its own.
//
// It owns the rules of identity: how a name is compared (Unicode NFKC,
// case folding and the TR39 confusable skeleton, internal/namekey: names
// that read alike are one; one script per name; the site's words kept),
// how a password is kept (argon2id, in a PHC-style string that carries its
// parameters), what a session or a bot token may do (a bot token is the
// bot and only the bot: never its owner, never an account action), and
// that a login attempt says nothing of whether a name exists (the same
// refusal and the same work). It budgets the hashing for the whole server
// (budget.go: a ceiling of hashes at once, a bounded queue that serves the
// least busy address first), and limits guessing without locking anyone
// out (a name's limits slow the guessing addresses only; a browser that
// logged in before, device.go, is never refused for them). It keeps
// nothing itself: every account, session and token hash is in the store
// (store.Accounts); only hashes of tokens are stored, and tokens come from
// internal/secret. Handler serves it over HTTP (under /api/account/), and
// Profiles the players' pages (under /api/players/).
//
// A bot an account owns is an account itself (Owner set, no password, a
// token instead of logins): its name is unique among all names, it has a
// page like a person, and a seat records its account as a person's does;
// the lobby marks its seats bot_account, apart from the server's own bots
// (bot), which the room plays.
package account
