package assist

import (
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"mafia/assist/record"
	"mafia/engine"
	"mafia/internal/secret"
)

// Live co-hosting: a referee (or a second host) follows the game the host
// runs, from their own phone at the same time, and proposes corrections.
// The host's phone stays the only writer of the game's entries (it runs the
// clock and the script); a co-host writes proposals (Fix), each one an
// operation with its writer and a place (Seq) in the game's list of
// proposals, taken in the server's order. The host's phone reads them with
// the game's entries and applies them in that order: a foul the co-host
// adds becomes the host's own foul entry at once; any other correction (a
// foul to take back, a vote count, a night's action or a result) is shown
// to the host, who applies it (with an undo and the entries again) or
// declines it. Every phone lists who proposed what and how it ended.
//
// The host invites by a one-time code (a link or QR code with the code in
// its fragment): the first phone that joins with it gets the co-host's key,
// and the code is spent. Only a key of the game (or the host's token) reads
// the live game; a stranger is refused with not_cohost. The host lists the
// co-hosts (who, invited or joined when), revokes one (their key stops at
// once) or gives one a new code (a lost phone: the old key stops, the new
// code joins another phone).

// MaxCohosts is how many co-hosts a game may have at once (not revoked).
const MaxCohosts = 4

// MaxCohostEntries is how many invitations a game's list keeps, the
// revoked ones included.
const MaxCohostEntries = 16

// MaxFixes is how many corrections a game's co-hosts may propose.
const MaxFixes = 200

// MaxFixText is the longest note of a correction, in characters.
const MaxFixText = 200

// The kinds of correction a co-host proposes (Fix.Kind).
const (
	FixFoulAdd    = "foul_add"    // give Seat a foul: the host's phone enters it at once
	FixFoulRemove = "foul_remove" // take back a foul of Seat
	FixVote       = "vote"        // Seat's vote count should be Count
	FixNight      = "night"       // a night's recorded action or the result is wrong (Text says how)
	// FixShot: the mafia shot Seat on night Round (0: missed); the host's
	// phone applies it by rewriting the entries (cohost_rewrite.go).
	FixShot = "shot"
	// FixCheck, FixDonCheck, FixSave: the Detective checked, the Don
	// checked, the Doctor saved Seat on night Round (0: nobody; not for
	// the Don); the host's phone applies them by rewriting the entries.
	FixCheck    = "check"
	FixDonCheck = "don_check"
	FixSave     = "save"
)

// The votes of a day a FixVote names (Fix.Vote): the first (""), the
// tie's repeat vote, "shall all of them leave?" (Voters: the yes, Seat 0).
const (
	VoteRevote = "revote"
	VoteAll    = "all_vote"
)

// nightFix says kind is a night move's correction named by its night
// (the shot, a check, the save).
func nightFix(kind string) bool {
	return kind == FixShot || kind == FixCheck || kind == FixDonCheck || kind == FixSave
}

// MaxFixRound is the latest night a correction may name.
const MaxFixRound = 255

// The states of a correction (Fix.State).
const (
	FixProposed = "proposed"
	FixApplied  = "applied"
	FixDeclined = "declined"
)

// The codes of co-hosting's refusals.
const (
	CodeNotCohost   engine.Code = "not_cohost"    // no co-host key of this game (nor the host's token)
	CodeInviteUsed  engine.Code = "invite_used"   // the one-time code was used already
	CodeCohostsFull engine.Code = "cohosts_full"  // the game has MaxCohosts co-hosts (N)
	CodeFixesFull   engine.Code = "fixes_full"    // the game holds MaxFixes corrections (N)
	CodeFixResolved engine.Code = "fix_resolved"  // the correction was applied or declined already
	CodeFixNotFound engine.Code = "fix_not_found" // no correction at that place
	CodeBadFix      engine.Code = "bad_fix"       // a correction not well formed (Name: the field)
	// CodeCohostNotFound: no invitation of that id in the game's list.
	CodeCohostNotFound engine.Code = "cohost_not_found"
)

// Cohost is one person the host invited to follow the game: only hashes
// of the one-time code and of the key are kept.
type Cohost struct {
	// ID is the invitation's number in the game, from 1 (0 in a record
	// made before invitations were numbered: its place in the list plus one).
	ID      int        `json:"id,omitempty"`
	Name    string     `json:"name"`
	Code    string     `json:"code"`              // the one-time code's hash ("" once revoked)
	Key     string     `json:"key,omitempty"`     // the key's hash, once joined
	Added   time.Time  `json:"added"`             // invited (or given a new code) at
	Joined  *time.Time `json:"joined,omitempty"`  // the code was used at
	Revoked *time.Time `json:"revoked,omitempty"` // the host revoked it at: no code, no key
	// Account is the site's account the invitation names (0: none), whose
	// login joins without the code (cohost_account.go); AccountName its
	// name as it showed.
	Account     int64  `json:"account,omitempty"`
	AccountName string `json:"account_name,omitempty"`
}

// Fix is one correction a co-host proposed, at its place (Seq) in the
// game's list of corrections, with its writer (By) and its outcome.
type Fix struct {
	Seq   int    `json:"seq"`
	ID    string `json:"id"` // the co-host's phone's id: a repeat is the same correction
	By    string `json:"by"` // the co-host's name
	Kind  string `json:"kind"`
	Seat  int    `json:"seat,omitempty"`
	Count int    `json:"count,omitempty"`
	Text  string `json:"text,omitempty"`
	Round int    `json:"round,omitempty"` // FixShot: the night; FixVote: the day (0: not named)
	// Voters are, for a FixVote of a named day, the seats whose hands were
	// raised for Seat (the host's phone applies it by rewriting the entries).
	Voters []int `json:"voters,omitempty"`
	// Vote is, for a FixVote, which vote of the day: "" the first,
	// VoteRevote or VoteAll.
	Vote  string    `json:"vote,omitempty"`
	At    time.Time `json:"at"`
	State string    `json:"state"`
	// Entry is, for a correction applied, the place of the host's entry
	// that applied it, plus one (0: none, as for a correction applied by
	// hand with an undo).
	Entry    int        `json:"entry,omitempty"`
	Resolved *time.Time `json:"resolved,omitempty"`
}

// cohostView is a co-host as the host's phone lists them (no secrets):
// invited at Added, joined (at JoinedAt) or not yet, revoked or not.
type cohostView struct {
	ID       int        `json:"id"`
	Name     string     `json:"name"`
	Added    time.Time  `json:"added"`
	Joined   bool       `json:"joined"`
	JoinedAt *time.Time `json:"joined_at,omitempty"`
	Revoked  *time.Time `json:"revoked,omitempty"`
	Account  string     `json:"account,omitempty"` // the account named, if any
}

// cohostID is the id of the i-th invitation of the list.
func cohostID(c Cohost, i int) int {
	if c.ID == 0 {
		return i + 1
	}
	return c.ID
}

func (gm *game) cohostViews() []cohostView {
	out := []cohostView{}
	for i, c := range gm.rec.Cohosts {
		out = append(out, cohostView{ID: cohostID(c, i), Name: c.Name, Added: c.Added, Joined: c.Joined != nil, JoinedAt: c.Joined,
			Revoked: c.Revoked, Account: c.AccountName})
	}
	return out
}

// active is how many co-hosts are not revoked.
func (gm *game) active() int {
	n := 0
	for _, c := range gm.rec.Cohosts {
		if c.Revoked == nil {
			n++
		}
	}
	return n
}

// cohostAt is the place in the list of invitation id, or -1.
func (gm *game) cohostAt(id int) int {
	for i, c := range gm.rec.Cohosts {
		if cohostID(c, i) == id {
			return i
		}
	}
	return -1
}

// nextCohostID is the id of a new invitation: one past every id given.
func (gm *game) nextCohostID() int {
	n := len(gm.rec.Cohosts)
	for i, c := range gm.rec.Cohosts {
		n = max(n, cohostID(c, i))
	}
	return n + 1
}

// fixes returns the game's corrections (never nil).
func (gm *game) fixes() []Fix { return append([]Fix{}, gm.rec.Fixes...) }

// cohostOf returns the co-host whose key tok is, or nil.
func (gm *game) cohostOf(tok string) *Cohost {
	for i := range gm.rec.Cohosts {
		if c := &gm.rec.Cohosts[i]; tokenMatches(tok, c.Key) {
			return c
		}
	}
	return nil
}

// keep writes the game's record after a change made by fn, which changes
// gm.rec; if the store refuses, the record is as before.
func (h *Handler) keep(r *http.Request, gm *game, fn func(rec *inPerson)) error {
	old := gm.rec
	rec := gm.rec
	rec.Cohosts = append([]Cohost(nil), old.Cohosts...)
	rec.Fixes = append([]Fix(nil), old.Fixes...)
	fn(&rec)
	gm.rec = rec
	t := gm.table
	t.Data, t.UpdatedAt = gm.data(), h.cfg.Now().UTC()
	if err := h.cfg.Store.UpdateTable(r.Context(), t); err != nil {
		gm.rec = old
		return err
	}
	gm.table = t
	return nil
}

// inviteRequest is the body of POST /host/api/games/{id}/cohosts: the
// person's name, and their account on the site if they have one (the
// name defaults to the account's).
type inviteRequest struct {
	Name    string `json:"name"`
	Account string `json:"account,omitempty"`
}

// invite answers POST /host/api/games/{id}/cohosts for the host: a new
// co-host named Name, and their one-time code (shown once: the server
// keeps its hash).
func (h *Handler) invite(w http.ResponseWriter, r *http.Request) {
	if h.foreign(w, r) {
		return
	}
	id := r.PathValue("id")
	var req inviteRequest
	if err := decode(r, &req, 4<<10); err != nil {
		h.fail(w, r, err, nil)
		return
	}
	acct, acctName, err := h.invitedAccount(r, req.Account)
	if err != nil {
		h.fail(w, r, err, nil)
		return
	}
	name := strings.TrimSpace(req.Name)
	if name == "" {
		name = acctName
	}
	if name == "" || utf8.RuneCountInString(name) > record.MaxName {
		h.fail(w, r, &engine.Error{Code: CodeBadFix, Name: "name", N: record.MaxName}, nil)
		return
	}
	gm, ok := h.hostGame(w, r, id)
	if !ok {
		return
	}
	defer h.unlock(gm)
	if gm.active() >= MaxCohosts || len(gm.rec.Cohosts) >= MaxCohostEntries {
		h.fail(w, r, &engine.Error{Code: CodeCohostsFull, N: MaxCohosts}, nil)
		return
	}
	code := secret.Token()
	cid := gm.nextCohostID()
	if err := h.keep(r, gm, func(rec *inPerson) {
		rec.Cohosts = append(rec.Cohosts, Cohost{ID: cid, Name: name, Code: secret.Hash(code), Added: h.cfg.Now().UTC(),
			Account: acct, AccountName: acctName})
	}); err != nil {
		h.fail(w, r, err, nil)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"code": code, "id": cid, "name": name, "cohosts": gm.cohostViews()})
}

// hostCohost loads and locks game id for its host, and finds the
// invitation {cid} of its list (cohost_not_found if none).
func (h *Handler) hostCohost(w http.ResponseWriter, r *http.Request) (*game, int, bool) {
	if h.foreign(w, r) {
		return nil, 0, false
	}
	gm, ok := h.hostGame(w, r, r.PathValue("id"))
	if !ok {
		return nil, 0, false
	}
	cid, err := strconv.Atoi(r.PathValue("cid"))
	at := -1
	if err == nil {
		at = gm.cohostAt(cid)
	}
	if at < 0 {
		h.unlock(gm)
		h.fail(w, r, &engine.Error{Code: CodeCohostNotFound}, nil)
		return nil, 0, false
	}
	return gm, at, true
}

// revoke answers DELETE /host/api/games/{id}/cohosts/{cid} for the host:
// the invitation's code and key stop at once (not_cohost for whatever they
// ask next); it stays in the list, revoked, and frees its place. Revoking
// it again changes nothing.
func (h *Handler) revoke(w http.ResponseWriter, r *http.Request) {
	gm, at, ok := h.hostCohost(w, r)
	if !ok {
		return
	}
	defer h.unlock(gm)
	if gm.rec.Cohosts[at].Revoked == nil {
		now := h.cfg.Now().UTC()
		if err := h.keep(r, gm, func(rec *inPerson) {
			c := &rec.Cohosts[at]
			c.Code, c.Key, c.Revoked = "", "", &now
		}); err != nil {
			h.fail(w, r, err, nil)
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"cohosts": gm.cohostViews()})
}

// reissue answers POST /host/api/games/{id}/cohosts/{cid}/code for the
// host: a new one-time code for the same person (their phone was lost):
// the old code and key stop at once, the new code joins one phone. A
// revoked invitation is so invited again, if the game has room.
func (h *Handler) reissue(w http.ResponseWriter, r *http.Request) {
	gm, at, ok := h.hostCohost(w, r)
	if !ok {
		return
	}
	defer h.unlock(gm)
	if gm.rec.Cohosts[at].Revoked != nil && gm.active() >= MaxCohosts {
		h.fail(w, r, &engine.Error{Code: CodeCohostsFull, N: MaxCohosts}, nil)
		return
	}
	code := secret.Token()
	now := h.cfg.Now().UTC()
	cid := cohostID(gm.rec.Cohosts[at], at)
	if err := h.keep(r, gm, func(rec *inPerson) {
		c := &rec.Cohosts[at]
		c.ID, c.Code, c.Key, c.Added, c.Joined, c.Revoked = cid, secret.Hash(code), "", now, nil, nil
	}); err != nil {
		h.fail(w, r, err, nil)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"code": code, "id": cid, "name": gm.rec.Cohosts[at].Name, "cohosts": gm.cohostViews()})
}

// joinRequest is the body of POST /host/api/games/{id}/cohosts/join.
type joinRequest struct {
	Code string `json:"code"`
}

// joinCohost answers POST /host/api/games/{id}/cohosts/join: the phone
// that brings an unused one-time code of the game gets the co-host's key
// (shown once), and the code is spent (invite_used for any later use). A
// code that is not the game's is refused with not_cohost.
func (h *Handler) joinCohost(w http.ResponseWriter, r *http.Request) {
	if h.foreign(w, r) {
		return
	}
	id := r.PathValue("id")
	var req joinRequest
	if err := decode(r, &req, 4<<10); err != nil {
		h.fail(w, r, err, nil)
		return
	}
	gm, err := h.locked(r.Context(), id)
	if err != nil {
		h.fail(w, r, err, nil)
		return
	}
	defer h.unlock(gm)
	at := -1
	for i, c := range gm.rec.Cohosts {
		if tokenMatches(req.Code, c.Code) {
			at = i
		}
	}
	if at < 0 {
		h.fail(w, r, &engine.Error{Code: CodeNotCohost}, nil)
		return
	}
	if gm.rec.Cohosts[at].Joined != nil {
		h.fail(w, r, &engine.Error{Code: CodeInviteUsed}, nil)
		return
	}
	h.admitCohost(w, r, gm, at)
}

// liveReply answers GET /host/api/games/{id}/live: the game as the host's
// phone holds it on the server (the settings with the cards, and the
// entries: the co-host's phone replays them through the engine and shows
// what the host sees), the corrections, the co-hosts, and who asks.
type liveReply struct {
	gameReply
	Fixes   []Fix        `json:"fixes"`
	Cohosts []cohostView `json:"cohosts"`
	You     string       `json:"you"` // the co-host's name ("": the host)
	// Clock is the host's speech clock as last told (clock.go; null: never),
	// Now the server's time, to count the time left from Clock.At.
	Clock *Clock    `json:"clock"`
	Now   time.Time `json:"now"`
}

// cohostGame loads and locks game id for a request of its host or of one
// of its co-hosts (by the key); who is the co-host (nil: the host).
// Anybody else is refused with not_cohost.
func (h *Handler) cohostGame(w http.ResponseWriter, r *http.Request, id string) (gm *game, who *Cohost, ok bool) {
	gm, err := h.locked(r.Context(), id)
	if err != nil {
		h.fail(w, r, err, nil)
		return nil, nil, false
	}
	tok := bearer(r)
	if gm.authorized(tok) {
		return gm, nil, true
	}
	if c := gm.cohostOf(tok); c != nil {
		return gm, c, true
	}
	h.unlock(gm)
	h.fail(w, r, &engine.Error{Code: CodeNotCohost}, nil)
	return nil, nil, false
}

func (h *Handler) live(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	gm, who, ok := h.cohostGame(w, r, id)
	if !ok {
		return
	}
	defer h.unlock(gm)
	you := ""
	if who != nil {
		you = who.Name
	}
	writeJSON(w, http.StatusOK, liveReply{
		gameReply: gameReply{ID: id, Settings: gm.rec.Settings, Commands: append([]record.Command{}, gm.rec.Commands...),
			Events: len(gm.log), Ended: gm.g.Ended()},
		Fixes: gm.fixes(), Cohosts: gm.cohostViews(), You: you, Clock: gm.rec.Clock, Now: h.cfg.Now().UTC()})
}

// fixRequest is the body of POST /host/api/games/{id}/fixes.
type fixRequest struct {
	ID     string `json:"id"`
	Kind   string `json:"kind"`
	Seat   int    `json:"seat"`
	Count  int    `json:"count"`
	Text   string `json:"text"`
	Round  int    `json:"round"`
	Voters []int  `json:"voters"`
	Vote   string `json:"vote"`
}

// check refuses a correction not well formed for a game of n seats.
func (f fixRequest) check(n int) error {
	bad := func(name string) error { return &engine.Error{Code: CodeBadFix, Name: name, N: n} }
	switch {
	case f.ID == "" || len(f.ID) > record.MaxID:
		return bad("id")
	case f.Kind != FixFoulAdd && f.Kind != FixFoulRemove && f.Kind != FixVote && f.Kind != FixNight && !nightFix(f.Kind):
		return bad("kind")
	case f.Vote != "" && (f.Kind != FixVote || f.Vote != VoteRevote && f.Vote != VoteAll):
		return bad("vote")
	case f.Round < 0 || f.Round > MaxFixRound || nightFix(f.Kind) && f.Round == 0 || f.Vote != "" && f.Round == 0 ||
		f.Round > 0 && !nightFix(f.Kind) && f.Kind != FixVote || len(f.Voters) > 0 && f.Round == 0:
		return &engine.Error{Code: CodeBadFix, Name: "round", N: MaxFixRound}
	case len(f.Voters) > 0 && (f.Kind != FixVote || !distinctSeats(f.Voters, n) || f.Count != len(f.Voters)):
		return bad("voters")
	case f.Seat < 0 || f.Seat > n || f.Seat == 0 && f.Kind != FixNight && f.Kind != FixShot && f.Kind != FixCheck &&
		f.Kind != FixSave && f.Vote != VoteAll || f.Seat != 0 && f.Vote == VoteAll:
		return bad("seat")
	case f.Count < 0 || f.Count > n || (f.Kind != FixVote && f.Count != 0):
		return bad("count")
	case utf8.RuneCountInString(f.Text) > MaxFixText || (f.Kind == FixNight && strings.TrimSpace(f.Text) == ""):
		return &engine.Error{Code: CodeBadFix, Name: "text", N: MaxFixText}
	}
	return nil
}

// distinctSeats says each of seats is a seat of a game of n, once, and
// there are at most n.
func distinctSeats(seats []int, n int) bool {
	if len(seats) > n {
		return false
	}
	seen := map[int]bool{}
	for _, s := range seats {
		if s < 1 || s > n || seen[s] {
			return false
		}
		seen[s] = true
	}
	return true
}

// propose answers POST /host/api/games/{id}/fixes for a co-host: the
// correction takes the next place in the game's list, once (a repeat of
// its id answers the correction already held). The host's phone reads it
// with the game (live) and applies or declines it (resolve).
func (h *Handler) propose(w http.ResponseWriter, r *http.Request) {
	if h.foreign(w, r) {
		return
	}
	id := r.PathValue("id")
	var req fixRequest
	if err := decode(r, &req, 4<<10); err != nil {
		h.fail(w, r, err, nil)
		return
	}
	gm, who, ok := h.cohostGame(w, r, id)
	if !ok {
		return
	}
	defer h.unlock(gm)
	if who == nil { // the host corrects by entering: proposals are the co-hosts'
		h.fail(w, r, &engine.Error{Code: CodeNotCohost}, nil)
		return
	}
	for _, f := range gm.rec.Fixes {
		if f.ID == req.ID && f.By == who.Name {
			writeJSON(w, http.StatusOK, map[string]any{"fix": f})
			return
		}
	}
	if err := req.check(len(gm.rec.Settings.Names)); err != nil {
		h.fail(w, r, err, nil)
		return
	}
	if len(gm.rec.Fixes) >= MaxFixes {
		h.fail(w, r, &engine.Error{Code: CodeFixesFull, N: MaxFixes}, nil)
		return
	}
	f := Fix{Seq: len(gm.rec.Fixes), ID: req.ID, By: who.Name, Kind: req.Kind, Seat: req.Seat, Count: req.Count,
		Text: strings.TrimSpace(req.Text), Round: req.Round, Voters: req.Voters, Vote: req.Vote, At: h.cfg.Now().UTC(), State: FixProposed}
	if err := h.keep(r, gm, func(rec *inPerson) { rec.Fixes = append(rec.Fixes, f) }); err != nil {
		h.fail(w, r, err, nil)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"fix": f})
}

// resolveRequest is the body of PUT /host/api/games/{id}/fixes/{seq}.
type resolveRequest struct {
	State string `json:"state"` // applied or declined
	Entry int    `json:"entry"` // applied: the host's entry's place plus one (0: none)
}

// resolve answers PUT /host/api/games/{id}/fixes/{seq} for the host: the
// correction is applied or declined, once. The same answer again is taken
// as a repeat (the phone lost the first answer); another is refused with
// fix_resolved.
func (h *Handler) resolve(w http.ResponseWriter, r *http.Request) {
	if h.foreign(w, r) {
		return
	}
	id := r.PathValue("id")
	var req resolveRequest
	if err := decode(r, &req, 1<<10); err != nil {
		h.fail(w, r, err, nil)
		return
	}
	if req.State != FixApplied && req.State != FixDeclined {
		h.fail(w, r, &engine.Error{Code: CodeBadFix, Name: "state"}, nil)
		return
	}
	gm, ok := h.hostGame(w, r, id)
	if !ok {
		return
	}
	defer h.unlock(gm)
	seq, err := strconv.Atoi(r.PathValue("seq"))
	if err != nil || seq < 0 || seq >= len(gm.rec.Fixes) {
		h.fail(w, r, &engine.Error{Code: CodeFixNotFound}, nil)
		return
	}
	// The entry may not have reached the server yet (the host's phone
	// marks the correction as soon as its own storage holds the entry).
	if req.Entry < 0 || (req.State == FixDeclined && req.Entry != 0) {
		h.fail(w, r, &engine.Error{Code: CodeBadFix, Name: "entry"}, nil)
		return
	}
	if f := gm.rec.Fixes[seq]; f.State != FixProposed {
		if f.State == req.State {
			writeJSON(w, http.StatusOK, map[string]any{"fix": f})
			return
		}
		h.fail(w, r, &engine.Error{Code: CodeFixResolved}, nil)
		return
	}
	now := h.cfg.Now().UTC()
	if err := h.keep(r, gm, func(rec *inPerson) {
		rec.Fixes[seq].State, rec.Fixes[seq].Entry, rec.Fixes[seq].Resolved = req.State, req.Entry, &now
	}); err != nil {
		h.fail(w, r, err, nil)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"fix": gm.rec.Fixes[seq]})
}

// admitCohost gives the game's co-host at (an invitation taken, by its code
// or by the account it names) its key: only the key's hash is kept, with
// the time it joined, and the key goes to the co-host's phone once.
func (h *Handler) admitCohost(w http.ResponseWriter, r *http.Request, gm *game, at int) {
	key := secret.Token()
	now := h.cfg.Now().UTC()
	if err := h.keep(r, gm, func(rec *inPerson) {
		rec.Cohosts[at].Key, rec.Cohosts[at].Joined = secret.Hash(key), &now
	}); err != nil {
		h.fail(w, r, err, nil)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"key": key, "name": gm.rec.Cohosts[at].Name})
}
