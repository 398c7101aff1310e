package account

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"mafia/admission"
	"mafia/engine"
	"mafia/internal/httpapi"
	"mafia/internal/namekey"
	"mafia/internal/secret"
	"mafia/store"
)

// Config is what a Service is made from.
type Config struct {
	Store Store
	// Params are argon2id's (zero: DefaultParams). Only tests lower them.
	Params Params
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// SessionTTL is how long a login lasts (default 30 days).
	SessionTTL time.Duration
	// PerAddress limits the login attempts of a client address, whatever
	// the names (default 6 at once, then one every 10 seconds; signing up
	// counts too); PerPair those of an address on one name (default 5 at
	// once, then one a minute). PerName counts a name's wrong passwords
	// from every address (default 10 at once, then one a minute): past
	// it, the name is being guessed, and each address may try it only at
	// the Guarded rate (default one every 10 minutes), except from a
	// browser that logged in to it before (LoginFrom).
	PerName, PerAddress, PerPair, Guarded Limit
	// PerNetwork limits the attempts of an IPv6 /48 together, whatever
	// its addresses (default 24 at once, then one every 2.5 seconds).
	PerNetwork Limit
	// MaxKeys bounds each limiter's memory (default 10,000 keys).
	MaxKeys int
	// MaxBots is how many bots an account may own (default 10).
	MaxBots int
	// Hashing budgets the password hashes of the whole service (each
	// takes Params.Memory, 19 MiB by default, and a core for its time): at
	// most Hashing.Ceiling at once, the others in a bounded queue served
	// round robin across addresses (budget.go).
	Hashing Budget
	// SeatName, when set, checks that a new account's name is one a seat
	// may take (the room's rules: mafia serve passes room.CheckName), so
	// that an account can sit where its name is shown; a name it refuses
	// is CodeNameReserved.
	SeatName func(name string) error
	// Policy, if set, is consulted at each login once the password is
	// right (admission.DoorLogin, no table): the server's policy of who may
	// sit (moderation: a ban list), whose refusal the login answers with.
	Policy admission.Policy
}

// The prefixes that tell a login's token and a bot's token from a seat's
// (whose is bare hex): a program sends any of them as a bearer token.
const (
	sessionPrefix = "mfs_"
	botPrefix     = "mfb_"
)

// IsCredential reports whether a bearer token is an account's (a login's
// or a bot's) rather than a seat's.
func IsCredential(token string) bool {
	return strings.HasPrefix(token, sessionPrefix) || strings.HasPrefix(token, botPrefix)
}

// IsBotToken reports whether a credential is a bot account's token: a
// seat's credential and nothing else (the host's assistant refuses it).
func IsBotToken(token string) bool { return strings.HasPrefix(token, botPrefix) }

// Principal is who a request is: an account by one of its logins, or a bot
// by its token.
type Principal struct {
	Account store.Account
	// session is the hash of the login's token ("" for a bot).
	session string
}

// Bot reports whether the principal is a bot (by its token): it may take
// seats, as a bot, and nothing else.
func (p Principal) Bot() bool { return p.Account.IsBot() }

// Service is the accounts' rules over a store. Its methods are safe from
// any goroutine.
type Service struct {
	cfg            Config
	dummy          string // a decoy hash (decoyHash), verified against for an unknown name
	byName, byAddr *limiter
	byNet          *limiter // an IPv6 /48's attempts together
	// byPair and guarded limit an address on one name (key: address,
	// NUL, the name's key).
	byPair, guarded *limiter
	queue           *hashQueue
	// formsFilled: every account the store holds has its name's forms
	// (store.NameForms; fillForms), as far as this service knows.
	formsMu     sync.Mutex
	formsFilled bool
}

// New makes a Service.
func New(cfg Config) *Service {
	if cfg.Params == (Params{}) {
		cfg.Params = DefaultParams
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.SessionTTL <= 0 {
		cfg.SessionTTL = 30 * 24 * time.Hour
	}
	if cfg.PerName == (Limit{}) {
		cfg.PerName = Limit{Every: time.Minute, Burst: 10}
	}
	if cfg.PerAddress == (Limit{}) {
		cfg.PerAddress = Limit{Every: 10 * time.Second, Burst: 6}
	}
	if cfg.PerNetwork == (Limit{}) {
		cfg.PerNetwork = Limit{Every: 2500 * time.Millisecond, Burst: 24}
	}
	if cfg.PerPair == (Limit{}) {
		cfg.PerPair = Limit{Every: time.Minute, Burst: 5}
	}
	if cfg.Guarded == (Limit{}) {
		cfg.Guarded = Limit{Every: 10 * time.Minute, Burst: 1}
	}
	if cfg.MaxKeys <= 0 {
		cfg.MaxKeys = 10000
	}
	if cfg.MaxBots <= 0 {
		cfg.MaxBots = 10
	}
	return &Service{cfg: cfg, dummy: decoyHash(cfg.Params),
		byName: newLimiter(cfg.PerName, cfg.MaxKeys), byAddr: newLimiter(cfg.PerAddress, cfg.MaxKeys), byNet: newLimiter(cfg.PerNetwork, cfg.MaxKeys),
		byPair: newLimiter(cfg.PerPair, cfg.MaxKeys), guarded: newLimiter(cfg.Guarded, cfg.MaxKeys),
		queue: newHashQueue(cfg.Hashing)}
}

// Hashes counts the password hashes the service has computed (each
// signup, login attempt and change of password makes one, an unknown
// name's login too): what an operator watches, and what proves that a
// wrong name costs the same work as a wrong password.
func (s *Service) Hashes() uint64 { return s.queue.snapshot().Done }

// HashStats is the hashing budget's work so far (the operator's metrics).
func (s *Service) HashStats() HashStats { return s.queue.snapshot() }

// hash makes a password's hash in its turn for addr's bucket.
func (s *Service) hash(ctx context.Context, pw, addr string) (string, error) {
	if err := s.queue.acquire(ctx, bucketOf(addr)); err != nil {
		return "", err
	}
	defer s.queue.release()
	return hashPassword(pw, s.cfg.Params), nil
}

// verify checks a password against its hash in its turn for addr's
// bucket.
func (s *Service) verify(ctx context.Context, pw, encoded, addr string) (ok, stale bool, err error) {
	if err := s.queue.acquire(ctx, bucketOf(addr)); err != nil {
		return false, false, err
	}
	defer s.queue.release()
	ok, stale = verifyPassword(pw, encoded, s.cfg.Params)
	return ok, stale, nil
}

var errInternal = &engine.Error{Code: httpapi.CodeInternal}

// internal logs nothing itself: the handler logs err and answers internal.
func internal(err error) error { return fmt.Errorf("%w: %w", errInternal, err) }

// allowAddr takes one attempt of a client address ("" unknown: none):
// its own (PerAddress), and for an IPv6 address its network's too (the
// /48 it is in, PerNetwork), so that one network's many /64s do not each
// get a burst of their own.
func (s *Service) allowAddr(addr string, now time.Time) bool {
	if addr == "" {
		return true
	}
	if net := bucketOf(addr); net != addr && strings.Contains(net, ":") && !s.byNet.allow(net, now) {
		return false
	}
	return s.byAddr.allow(addr, now)
}

// AddrSpent reports whether a login or signup from addr (as limits key it)
// would now be refused for its address's attempts (CodeLoginLimited), unless
// it comes from a known device: the handler refuses such a request before
// reading its body.
func (s *Service) AddrSpent(addr string, now time.Time) bool {
	if addr == "" {
		return false
	}
	if net := bucketOf(addr); net != addr && strings.Contains(net, ":") && s.byNet.spent(net, now) {
		return true
	}
	return s.byAddr.spent(addr, now)
}

// Find is the account a name is: the one of exactly that name (compared
// after NFC and case folding, as names were before look-alikes were
// folded: two accounts made before then may read alike, and each keeps its
// own), else the one it reads as (Key). store.ErrNotFound when none.
func Find(ctx context.Context, st store.Accounts, name string) (store.Account, error) {
	legacy := LegacyKey(name)
	a, err := st.AccountByKey(ctx, legacy)
	if err == nil && LegacyKey(a.Name) == legacy {
		return a, nil
	}
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return a, err
	}
	if k := Key(name); k != legacy || err != nil {
		return st.AccountByKey(ctx, k)
	}
	return a, nil
}

// free checks that no account has a name that reads as shown (a new
// account's or bot's): CodeNameTaken for the same name, CodeNameLookalike
// for one that reads alike. Each form of the new name (namekey.Forms, and
// the key names had before look-alikes were folded) is looked up among
// the accounts' keys and among every form of their names
// (store.NameForms): two names read alike by any form of
// the one meeting any of the other, whichever is the older.
func (s *Service) free(ctx context.Context, shown string) error {
	if err := s.fillForms(ctx, s.cfg.Store); err != nil {
		return internal(err)
	}
	for _, k := range append(namekey.Forms(shown), LegacyKey(shown)) {
		a, err := s.cfg.Store.AccountByKey(ctx, k)
		if errors.Is(err, store.ErrNotFound) {
			a, err = s.cfg.Store.AccountByNameForm(ctx, k)
		}
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return internal(err)
		}
		if LegacyKey(a.Name) == LegacyKey(shown) {
			return refuse(CodeNameTaken)
		}
		return refuse(CodeNameLookalike)
	}
	return nil
}

// formsOf are the forms an account's name is kept by (store.NameForms):
// namekey.Forms, and the key it is stored by when that is another (an
// account made before look-alikes were folded).
func formsOf(a store.Account) []string {
	f := namekey.Forms(a.Name)
	if a.Key != "" && !slices.Contains(f, a.Key) {
		f = append(f, a.Key)
	}
	return f
}

// create makes a new account (a person's or a bot) with its name's forms
// (store.NameForms.CreateAccountWithForms): the store refuses it, in the
// same transaction, when another account has one of them, so that of two
// look-alike names asked for at once (both past free) only one is made;
// the other is refused as free would have refused it, had it come second.
func (s *Service) create(ctx context.Context, a store.Account) (int64, error) {
	forms := formsOf(a)
	if k := LegacyKey(a.Name); !slices.Contains(forms, k) {
		forms = append(forms, k)
	}
	id, err := s.cfg.Store.CreateAccountWithForms(ctx, a, forms)
	if errors.Is(err, store.ErrConflict) {
		if err := s.free(ctx, a.Name); err != nil {
			return 0, err
		}
		return 0, refuse(CodeNameTaken)
	}
	if err != nil {
		return 0, internal(err)
	}
	return id, nil
}

// fillForms records the forms of the accounts that have none (made before
// the store kept them), once for the service; any node may, the same
// forms each time.
func (s *Service) fillForms(ctx context.Context, forms store.NameForms) error {
	s.formsMu.Lock()
	defer s.formsMu.Unlock()
	if s.formsFilled {
		return nil
	}
	for {
		accts, err := forms.AccountsWithoutNameForms(ctx, 500)
		if err != nil {
			return err
		}
		for _, a := range accts {
			if err := forms.AddNameForms(ctx, a.ID, formsOf(a)); err != nil && !errors.Is(err, store.ErrNotFound) {
				return err
			}
		}
		if len(accts) < 500 {
			break
		}
	}
	s.formsFilled = true
	return nil
}

// checkName is CheckName and, when the service has one, the seats' check.
func (s *Service) checkName(name string) (shown, key string, err error) {
	if shown, key, err = CheckName(name); err != nil {
		return "", "", err
	}
	if s.cfg.SeatName != nil && s.cfg.SeatName(shown) != nil {
		return "", "", refuse(CodeNameReserved)
	}
	return shown, key, nil
}

// Signup makes an account and logs it in, returning its login's token.
// addr is the client's address as limits key it ("" unknown).
func (s *Service) Signup(ctx context.Context, name, password, addr string) (Principal, string, error) {
	shown, key, err := s.checkName(name)
	if err != nil {
		return Principal{}, "", err
	}
	if err := checkPassword(password); err != nil {
		return Principal{}, "", err
	}
	if !s.allowAddr(addr, s.cfg.Now()) {
		return Principal{}, "", refuse(CodeLoginLimited)
	}
	if !s.queue.room(bucketOf(addr)) {
		return Principal{}, "", errLoginBusy
	}
	if err := s.free(ctx, shown); err != nil {
		return Principal{}, "", err
	}
	h, err := s.hash(ctx, password, addr)
	if err != nil {
		return Principal{}, "", err
	}
	a := store.Account{Name: shown, Key: key, PasswordHash: h, Created: s.cfg.Now()}
	if a.ID, err = s.create(ctx, a); err != nil {
		return Principal{}, "", err
	}
	return s.startSession(ctx, a)
}

// Login checks a name and password and starts a login (LoginFrom with no
// known device).
func (s *Service) Login(ctx context.Context, name, password, addr string) (Principal, string, error) {
	return s.LoginFrom(ctx, Attempt{Name: name, Password: password, Addr: addr})
}

// Attempt is a login attempt: the name and password, the client's address
// as limits key it ("" unknown), and the device tokens its browser holds
// (DeviceCookie).
type Attempt struct {
	Name, Password, Addr string
	Devices              []string
}

// LoginFrom checks a name and password and starts a login. A name no
// account has, a bot's name and a wrong password are refused alike
// (CodeBadLogin), after the same work (one hash with the service's
// parameters: an unknown name is verified against a dummy hash).
//
// The limits, each refused with CodeLoginLimited before any hashing, are
// the address's (PerAddress, across names), the address's on this name
// (PerPair), and, once the name's wrong passwords from everywhere are past
// PerName (the name is being guessed), a slower one of the address on this
// name (Guarded). None of them refuses a browser that has logged in to the
// account before (a known device), and the name's own limit only slows the
// addresses that guess: the owner's right password from another address
// is let through (it costs one hash, as any attempt).
func (s *Service) LoginFrom(ctx context.Context, in Attempt) (Principal, string, error) {
	now := s.cfg.Now()
	key := Key(in.Name)
	limitKey := key
	if len(limitKey) > 4*MaxName {
		limitKey = limitKey[:4*MaxName] // no name is longer: the limiter's keys stay small
	}
	password := in.Password
	if len(password) > MaxPassword {
		password = password[:MaxPassword] // no account has a longer one; the work stays bounded
	}
	// Without a device token the address's limit and the queue come
	// first, before the store is read: a flood costs no more than a map's
	// look-up.
	if len(in.Devices) == 0 {
		if !s.allowAddr(in.Addr, now) {
			return Principal{}, "", refuse(CodeLoginLimited)
		}
		if !s.queue.room(bucketOf(in.Addr)) {
			return Principal{}, "", errLoginBusy
		}
	}
	a, err := Find(ctx, s.cfg.Store, in.Name)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return Principal{}, "", internal(err)
	}
	known := err == nil && !a.IsBot() && a.PasswordHash != ""
	if known && knownDevice(a, in.Devices) {
		// A browser that logged in to the account before: limited on its
		// own (a stolen device still guesses slowly), whatever others do
		// from its address or to its name.
		if !s.byPair.allow(fmt.Sprintf("device\x00%d", a.ID), now) {
			return Principal{}, "", refuse(CodeLoginLimited)
		}
	} else {
		pair := in.Addr + "\x00" + limitKey
		if len(in.Devices) > 0 && !s.allowAddr(in.Addr, now) {
			return Principal{}, "", refuse(CodeLoginLimited)
		}
		if !s.byPair.allow(pair, now) {
			return Principal{}, "", refuse(CodeLoginLimited)
		}
		if s.byName.spent(limitKey, now) && !s.guarded.allow(pair, now) {
			return Principal{}, "", refuse(CodeLoginLimited)
		}
	}
	encoded := s.dummy
	if known {
		encoded = a.PasswordHash
	}
	// A login verifies by the parameters its hash carries.
	ok, stale, err := s.verify(ctx, password, encoded, in.Addr)
	if err != nil {
		return Principal{}, "", err
	}
	if !ok || !known {
		s.byName.allow(limitKey, now) // one more wrong guess at the name
		return Principal{}, "", refuse(CodeBadLogin)
	}
	if stale {
		// Made with parameters since changed: kept from now on with the
		// service's (one more hash, once the answer is decided, for the
		// right password only).
		h, err := s.hash(ctx, password, in.Addr)
		if err != nil {
			return Principal{}, "", err
		}
		if err := s.cfg.Store.Rehash(ctx, a.ID, a.PasswordHash, h); err != nil {
			return Principal{}, "", internal(err)
		}
		a.PasswordHash = h
	}
	if s.cfg.Policy != nil {
		// Asked only once the password is right: the policy tells a
		// stranger nothing about a name.
		if err := s.cfg.Policy.CanSit(ctx, admission.Who{Account: a.ID, Addr: in.Addr}, admission.Table{Door: admission.DoorLogin}); err != nil {
			return Principal{}, "", err
		}
	}
	return s.startSession(ctx, a)
}

func (s *Service) startSession(ctx context.Context, a store.Account) (Principal, string, error) {
	tok := sessionPrefix + secret.Token()
	now := s.cfg.Now()
	h := secret.Hash(tok)
	if err := s.cfg.Store.CreateSession(ctx, store.Session{TokenHash: h, Account: a.ID, Created: now,
		Expires: now.Add(s.cfg.SessionTTL)}); err != nil {
		return Principal{}, "", internal(err)
	}
	return Principal{Account: a, session: h}, tok, nil
}

// Authenticate reads a credential: a login's token (a live session) or a
// bot's token. Anything else, an ended or expired login, or a rotated bot
// token, is refused with CodeNotLoggedIn.
func (s *Service) Authenticate(ctx context.Context, token string) (Principal, error) {
	switch {
	case strings.HasPrefix(token, sessionPrefix):
		h := secret.Hash(token)
		sess, err := s.cfg.Store.Session(ctx, h)
		if errors.Is(err, store.ErrNotFound) {
			return Principal{}, refuse(CodeNotLoggedIn)
		}
		if err != nil {
			return Principal{}, internal(err)
		}
		if !s.cfg.Now().Before(sess.Expires) {
			_ = s.cfg.Store.DeleteSession(ctx, h)
			return Principal{}, refuse(CodeNotLoggedIn)
		}
		a, err := s.cfg.Store.AccountByID(ctx, sess.Account)
		if err != nil {
			return Principal{}, refuse(CodeNotLoggedIn)
		}
		return Principal{Account: a, session: h}, nil
	case strings.HasPrefix(token, botPrefix):
		a, err := s.cfg.Store.AccountByBotToken(ctx, secret.Hash(token))
		if errors.Is(err, store.ErrNotFound) {
			return Principal{}, refuse(CodeNotLoggedIn)
		}
		if err != nil {
			return Principal{}, internal(err)
		}
		return Principal{Account: a}, nil
	}
	return Principal{}, refuse(CodeNotLoggedIn)
}

// person refuses a bot's credential for an account action.
func person(p Principal) error {
	if p.Bot() || p.session == "" {
		return refuse(CodeBotCredential)
	}
	return nil
}

// Logout ends the principal's login.
func (s *Service) Logout(ctx context.Context, p Principal) error {
	if err := person(p); err != nil {
		return err
	}
	if err := s.cfg.Store.DeleteSession(ctx, p.session); err != nil {
		return internal(err)
	}
	return nil
}

// LogoutAll ends every login of the principal's account, this one too.
func (s *Service) LogoutAll(ctx context.Context, p Principal) error {
	if err := person(p); err != nil {
		return err
	}
	if err := s.cfg.Store.DeleteSessions(ctx, p.Account.ID); err != nil {
		return internal(err)
	}
	return nil
}

// ChangePassword checks the old password and sets the new one, ending
// every other login of the account (this one goes on). A wrong old
// password is CodeBadLogin. (ChangePasswordFrom with no address.)
func (s *Service) ChangePassword(ctx context.Context, p Principal, old, new string) error {
	return s.ChangePasswordFrom(ctx, p, old, new, "")
}

// ChangePasswordFrom is ChangePassword from a client's address as limits
// key it ("" unknown): attempts count against it and against the account
// (a stolen login guessing its password is limited as a guesser is), and
// its hashes take their turns as the address's.
func (s *Service) ChangePasswordFrom(ctx context.Context, p Principal, old, new, addr string) error {
	if err := person(p); err != nil {
		return err
	}
	if err := checkPassword(new); err != nil {
		return err
	}
	now := s.cfg.Now()
	if !s.allowAddr(addr, now) || !s.byPair.allow("password\x00"+p.Account.Key, now) {
		return refuse(CodeLoginLimited)
	}
	a, err := s.cfg.Store.AccountByID(ctx, p.Account.ID)
	if err != nil {
		return internal(err)
	}
	if len(old) > MaxPassword {
		old = old[:MaxPassword]
	}
	ok, _, err := s.verify(ctx, old, a.PasswordHash, addr)
	if err != nil {
		return err
	}
	if !ok {
		return refuse(CodeBadLogin)
	}
	h, err := s.hash(ctx, new, addr)
	if err != nil {
		return err
	}
	if err := s.cfg.Store.SetPassword(ctx, a.ID, h, p.session); err != nil {
		return internal(err)
	}
	return nil
}

// Bots lists the bots the principal owns.
func (s *Service) Bots(ctx context.Context, p Principal) ([]store.Account, error) {
	if err := person(p); err != nil {
		return nil, err
	}
	bots, err := s.cfg.Store.Bots(ctx, p.Account.ID)
	if err != nil {
		return nil, internal(err)
	}
	return bots, nil
}

// CreateBot makes a bot the principal owns, with a name of its own (an
// account name like any other) and a fresh token, which it returns: the
// only time it is shown.
func (s *Service) CreateBot(ctx context.Context, p Principal, name string) (store.Account, string, error) {
	if err := person(p); err != nil {
		return store.Account{}, "", err
	}
	shown, key, err := s.checkName(name)
	if err != nil {
		return store.Account{}, "", err
	}
	bots, err := s.cfg.Store.Bots(ctx, p.Account.ID)
	if err != nil {
		return store.Account{}, "", internal(err)
	}
	if len(bots) >= s.cfg.MaxBots {
		return store.Account{}, "", &engine.Error{Code: CodeTooManyBots, N: s.cfg.MaxBots}
	}
	if err := s.free(ctx, shown); err != nil {
		return store.Account{}, "", err
	}
	tok := botPrefix + secret.Token()
	b := store.Account{Name: shown, Key: key, Owner: p.Account.ID, BotTokenHash: secret.Hash(tok), Created: s.cfg.Now()}
	if b.ID, err = s.create(ctx, b); err != nil {
		return store.Account{}, "", err
	}
	return b, tok, nil
}

// RotateBot gives one of the principal's bots a new token; the old one
// stops working at once.
func (s *Service) RotateBot(ctx context.Context, p Principal, name string) (store.Account, string, error) {
	if err := person(p); err != nil {
		return store.Account{}, "", err
	}
	b, err := Find(ctx, s.cfg.Store, name)
	if errors.Is(err, store.ErrNotFound) || (err == nil && b.Owner != p.Account.ID) {
		return store.Account{}, "", refuse(CodeNotYourBot)
	}
	if err != nil {
		return store.Account{}, "", internal(err)
	}
	tok := botPrefix + secret.Token()
	if err := s.cfg.Store.SetBotToken(ctx, b.ID, secret.Hash(tok)); err != nil {
		return store.Account{}, "", internal(err)
	}
	return b, tok, nil
}

// Keep gives the principal's account a finished game's guest seat, the
// one its token holds. A bot may not (CodeBotCredential); a game not over,
// or a token that is not a guest's seat of it, is CodeCannotKeep.
func (s *Service) Keep(ctx context.Context, p Principal, table, seatToken string) error {
	if err := person(p); err != nil {
		return err
	}
	if table == "" || seatToken == "" {
		return refuse(CodeCannotKeep)
	}
	err := s.cfg.Store.KeepSeat(ctx, table, secret.Hash(seatToken), p.Account.ID)
	if errors.Is(err, store.ErrNotFound) {
		return refuse(CodeCannotKeep)
	}
	if err != nil {
		return internal(err)
	}
	return nil
}
