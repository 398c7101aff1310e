package store

import (
	"context"
	"time"
)

// Account is a player's account, or a bot an account owns (Owner set).
type Account struct {
	ID   int64
	Name string // as shown (Unicode NFC)
	Key  string // what it is unique by (NFC, case-folded); package account makes it
	// PasswordHash is the PHC-style argon2id string; empty for a bot,
	// which has no password and no logins.
	PasswordHash string
	// Owner is the account that owns this bot; 0 for a person's account.
	Owner int64
	// BotTokenHash is the hash of a bot's token (secret.Hash); empty for
	// a person's account.
	BotTokenHash string
	Created      time.Time
}

// IsBot reports whether the account is a bot an account owns.
func (a Account) IsBot() bool { return a.Owner != 0 }

// Session is one login of an account.
type Session struct {
	TokenHash string // secret.Hash of the login's token; the token itself is never stored
	Account   int64
	Created   time.Time
	Expires   time.Time
}

// AccountGame is one finished online game an account played, as its
// profile lists it.
type AccountGame struct {
	Table     string
	Name      string // the table's name
	Public    bool
	Winner    string // the winning team, as the table records it
	Seat      int
	Players   int
	Role      string // the seat's card, from the game's deal ("" if unreadable)
	Ended     time.Time
	ViewerSat bool // the viewer asked about had a seat at the table too
}

// Accounts is a Store that keeps accounts, their logins and their bots,
// and which seats accounts took.
type Accounts interface {
	// CreateAccount adds an account (its ID is set by the store and
	// returned). A Key another account has is ErrConflict.
	CreateAccount(ctx context.Context, a Account) (int64, error)
	// AccountByKey and AccountByID find an account; ErrNotFound if none.
	AccountByKey(ctx context.Context, key string) (Account, error)
	AccountByID(ctx context.Context, id int64) (Account, error)
	// AccountByBotToken finds the bot whose token hashes to hash;
	// ErrNotFound if none.
	AccountByBotToken(ctx context.Context, hash string) (Account, error)
	// Bots lists the bots an account owns, oldest first.
	Bots(ctx context.Context, owner int64) ([]Account, error)
	// SetBotToken replaces a bot's token hash (its old token stops
	// working); ErrNotFound if the account is not a bot.
	SetBotToken(ctx context.Context, id int64, hash string) error
	// SetPassword replaces an account's password hash and, in the same
	// transaction, ends every login of it but the one whose hash is keep
	// ("" ends them all).
	SetPassword(ctx context.Context, id int64, hash, keep string) error
	// Rehash replaces an account's password hash old by new, its logins
	// untouched (a hash made with parameters since raised); a hash that is
	// no longer old (changed meanwhile) is left, and that is not an error.
	Rehash(ctx context.Context, id int64, old, new string) error
	// CreateSession stores a login (and forgets the account's logins
	// that expired by its Created); Session finds one by its hash
	// (ErrNotFound if none: expiry is the caller's to check);
	// DeleteSession ends one; DeleteSessions ends every login of an
	// account.
	CreateSession(ctx context.Context, s Session) error
	Session(ctx context.Context, hash string) (Session, error)
	DeleteSession(ctx context.Context, hash string) error
	DeleteSessions(ctx context.Context, account int64) error
	// AccountGames lists the finished online games an account had a seat
	// at, the newest first, at most limit (<= 0: all), each saying
	// whether viewer (0: nobody) had a seat there too.
	AccountGames(ctx context.Context, account, viewer int64, limit int) ([]AccountGame, error)
	// KeepSeat gives a finished online game's guest seat, the one whose
	// token hashes to tokenHash, to an account. ErrNotFound if the table
	// has no such seat, or it is not over, or the seat is an account's
	// already.
	KeepSeat(ctx context.Context, table, tokenHash string, account int64) error
}
