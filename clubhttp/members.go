package clubhttp

// This file serves a club's members and its roster's links to accounts
// (docs/club.md): who may change a club (the holder of its code, as every
// phone of the club today, or a logged-in owner or host), the members with
// their roles, and a roster entry's link to an account, its unlink and its
// rename.

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"mafia/account"
	"mafia/club"
	"mafia/engine"
	"mafia/store"
)

// clubAccess is who asks about a club: the holder of its code (Code: every
// power, as the club's phones have had), or a logged-in account (Account,
// 0 for none) with its role there ("" when it is no member).
type clubAccess struct {
	Code    bool
	Account int64
	Role    store.ClubRole
}

// owner reports whether the access may do what an owner does.
func (a clubAccess) owner() bool { return a.Code || a.Role == store.ClubOwner }

// atLeastHost is nil for the club's code, an owner or a host; else the
// refusal: the code's (bad_token) for a request with no login, the
// club's (not_club_host) for an account that is neither.
func (a clubAccess) atLeastHost() error {
	switch {
	case a.owner() || a.Role == store.ClubHost:
		return nil
	case a.Account == 0:
		return errBadToken
	}
	return &engine.Error{Code: club.CodeNotClubHost}
}

// members is the store's club members.
func (h *Handler) members() store.ClubMembers { return h.cfg.Store }

// accounts is the store's accounts.
func (h *Handler) accounts() store.Accounts { return h.cfg.Store }

// loggedIn is the person's account a request is logged in as (0: none, a
// bot's token, or no accounts on this site).
func (h *Handler) loggedIn(r *http.Request) int64 {
	if h.cfg.Accounts == nil || account.TokenOf(r) == "" {
		return 0
	}
	p, err := h.cfg.Accounts.FromRequest(r)
	if err != nil || p.Bot() {
		return 0
	}
	return p.Account.ID
}

// accessOf is who the request is for club c: its code as a bearer token,
// else the login's role there.
func (h *Handler) accessOf(r *http.Request, c store.Club) clubAccess {
	if tokenMatches(bearer(r), c.TokenHash) {
		return clubAccess{Code: true}
	}
	a := clubAccess{Account: h.loggedIn(r)}
	if ms := h.members(); a.Account != 0 {
		if m, err := ms.ClubMember(r.Context(), c.ID, a.Account); err == nil {
			a.Role = m.Role
		}
	}
	return a
}

// ownNewClub makes the logged-in account that made a club its owner (no
// login: the club has only its code, as before).
func (h *Handler) ownNewClub(r *http.Request, clubID string) error {
	id, ms := h.loggedIn(r), h.members()
	if id == 0 {
		return nil
	}
	return ms.SetMember(r.Context(), store.ClubMembership{Club: clubID, Account: id, Role: store.ClubOwner, Added: h.cfg.Now().UTC()})
}

// memberJSON is one member as the API answers it: the account's name, its
// role, and the roster entry linked to it ("" for none).
type memberJSON struct {
	Name   string `json:"name"`
	Role   string `json:"role"`
	Person string `json:"person,omitempty"`
}

// membersOf is a club's members in the order added, and its roster's links
// (entry id to the account's name).
func (h *Handler) membersOf(ctx context.Context, clubID string) ([]memberJSON, map[string]string, error) {
	ms, as := h.members(), h.accounts()
	people, err := h.clubs().People(ctx, clubID)
	if err != nil {
		return nil, nil, err
	}
	names := map[int64]string{}
	name := func(id int64) string {
		if n, ok := names[id]; ok {
			return n
		}
		n := ""
		if a, err := as.AccountByID(ctx, id); err == nil {
			n = a.Name
		}
		names[id] = n
		return n
	}
	links := map[string]string{}
	linked := map[int64]string{}
	for _, p := range people {
		if p.AccountID == nil {
			continue
		}
		if id, err := strconv.ParseInt(*p.AccountID, 10, 64); err == nil {
			if n := name(id); n != "" {
				links[p.ID], linked[id] = n, p.ID
			}
		}
	}
	list, err := ms.ClubMembers(ctx, clubID)
	if err != nil {
		return nil, nil, err
	}
	out := make([]memberJSON, 0, len(list))
	for _, m := range list {
		if n := name(m.Account); n != "" {
			out = append(out, memberJSON{Name: n, Role: string(m.Role), Person: linked[m.Account]})
		}
	}
	return out, links, nil
}

// memberChange begins a change of a club's members or roster links: a
// request from the club's own pages, its body decoded, the club loaded and
// the asker an owner, a host or the code; false when it has answered.
func (h *Handler) memberChange(w http.ResponseWriter, r *http.Request, req any) (store.Club, clubAccess, bool) {
	if h.foreign(w, r) {
		return store.Club{}, clubAccess{}, false
	}
	if req != nil {
		if err := decode(r, req, 1<<10); err != nil {
			h.fail(w, r, err)
			return store.Club{}, clubAccess{}, false
		}
	}
	c, _, err := h.loadClub(r.Context(), r.PathValue("club"))
	if err != nil {
		h.fail(w, r, err)
		return c, clubAccess{}, false
	}
	return c, h.accessOf(r, c), true
}

// personAccount finds the person's account of a name (bad_member for none
// or for a bot's).
func (h *Handler) personAccount(ctx context.Context, name string) (store.Account, error) {
	a, err := account.Find(ctx, h.accounts(), name)
	if errors.Is(err, store.ErrNotFound) || (err == nil && a.IsBot()) {
		return a, &engine.Error{Code: club.CodeBadMember, Name: "account", Value: name}
	}
	return a, err
}

func (h *Handler) listMembers(w http.ResponseWriter, r *http.Request) {
	c, _, ok := h.clubFor(w, r)
	if !ok {
		return
	}
	out, _, err := h.membersOf(r.Context(), c.ID)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"members": out})
}

// memberRequest is the body of a member's add or role change.
type memberRequest struct {
	Role string `json:"role"`
}

// setMember serves PUT /host/api/clubs/{club}/members/{name}: the account
// of that name becomes a member with the role (default member), or its
// role changes. An owner (or the code) may give any role; a host may add
// members and nothing more.
func (h *Handler) setMember(w http.ResponseWriter, r *http.Request) {
	var req memberRequest
	c, acc, ok := h.memberChange(w, r, &req)
	if !ok {
		return
	}
	if err := acc.atLeastHost(); err != nil {
		h.fail(w, r, err)
		return
	}
	role := store.ClubRole(req.Role)
	if role == "" {
		role = store.ClubMember
	}
	if !role.Valid() {
		h.fail(w, r, &engine.Error{Code: club.CodeBadMember, Name: "role", Value: req.Role})
		return
	}
	ctx := r.Context()
	a, err := h.personAccount(ctx, r.PathValue("name"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	old, err := h.members().ClubMember(ctx, c.ID, a.ID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		h.fail(w, r, err)
		return
	}
	if !acc.owner() && (role != store.ClubMember || (err == nil && old.Role != store.ClubMember)) {
		h.fail(w, r, &engine.Error{Code: club.CodeNotClubOwner})
		return
	}
	err = h.members().SetMember(ctx, store.ClubMembership{Club: c.ID, Account: a.ID, Role: role, Added: h.cfg.Now().UTC()})
	if errors.Is(err, store.ErrConflict) {
		err = &engine.Error{Code: club.CodeLastOwner}
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, memberJSON{Name: a.Name, Role: string(role)})
}

// removeMember serves DELETE /host/api/clubs/{club}/members/{name}: an
// owner (or the code) removes any member, a host a plain member, and a
// member may leave.
func (h *Handler) removeMember(w http.ResponseWriter, r *http.Request) {
	c, acc, ok := h.memberChange(w, r, nil)
	if !ok {
		return
	}
	ctx := r.Context()
	a, err := h.personAccount(ctx, r.PathValue("name"))
	self := err == nil && a.ID == acc.Account
	if !self {
		if err := acc.atLeastHost(); err != nil {
			h.fail(w, r, err)
			return
		}
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	old, err := h.members().ClubMember(ctx, c.ID, a.ID)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if !self && !acc.owner() && old.Role != store.ClubMember {
		h.fail(w, r, &engine.Error{Code: club.CodeNotClubOwner})
		return
	}
	err = h.members().RemoveMember(ctx, c.ID, a.ID)
	if errors.Is(err, store.ErrConflict) {
		err = &engine.Error{Code: club.CodeLastOwner}
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, memberJSON{Name: a.Name})
}

// renamePerson serves PUT /host/api/clubs/{club}/people/{person}: the
// entry's name changes (its games keep it: they hold its id).
func (h *Handler) renamePerson(w http.ResponseWriter, r *http.Request) {
	var req personRequest
	c, _, ok := h.clubChange(w, r, &req, 1<<10)
	if !ok {
		return
	}
	req.Name = strings.TrimSpace(req.Name)
	if err := club.CheckName(req.Name, "person"); err != nil {
		h.fail(w, r, err)
		return
	}
	if err := h.clubs().RenamePerson(r.Context(), c.ID, r.PathValue("person"), req.Name); err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, club.Person{ID: r.PathValue("person"), Name: req.Name})
}

// linkRequest is the body of a link: the account's name.
type linkRequest struct {
	Name string `json:"name"`
}

// linkPerson serves PUT /host/api/clubs/{club}/people/{person}/account:
// the entry is linked to the account of that name, which becomes a member
// of the club if it is not one (the entry's games count on its page).
func (h *Handler) linkPerson(w http.ResponseWriter, r *http.Request) {
	var req linkRequest
	c, acc, ok := h.memberChange(w, r, &req)
	if !ok {
		return
	}
	if err := acc.atLeastHost(); err != nil {
		h.fail(w, r, err)
		return
	}
	ctx := r.Context()
	a, err := h.personAccount(ctx, req.Name)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	err = h.members().LinkPerson(ctx, c.ID, r.PathValue("person"), a.ID)
	if errors.Is(err, store.ErrConflict) {
		err = &engine.Error{Code: club.CodeLinkTaken}
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if _, err := h.members().ClubMember(ctx, c.ID, a.ID); errors.Is(err, store.ErrNotFound) {
		err = h.members().SetMember(ctx, store.ClubMembership{Club: c.ID, Account: a.ID, Role: store.ClubMember, Added: h.cfg.Now().UTC()})
		if err != nil {
			h.fail(w, r, err)
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]string{"person": r.PathValue("person"), "account": a.Name})
}

// unlinkPerson serves DELETE /host/api/clubs/{club}/people/{person}/account.
func (h *Handler) unlinkPerson(w http.ResponseWriter, r *http.Request) {
	c, acc, ok := h.memberChange(w, r, nil)
	if !ok {
		return
	}
	if err := acc.atLeastHost(); err != nil {
		h.fail(w, r, err)
		return
	}
	if err := h.members().UnlinkPerson(r.Context(), c.ID, r.PathValue("person")); err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"person": r.PathValue("person")})
}

// myClubs serves GET /host/api/clubs/mine: the clubs the request's login
// owns or hosts (id, name, role), by name; none without a login.
func (h *Handler) myClubs(w http.ResponseWriter, r *http.Request) {
	out := []account.ClubJSON{}
	if id, ms := h.loggedIn(r), h.members(); id != 0 {
		cs, err := ms.AccountClubs(r.Context(), id)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		for _, c := range cs {
			if c.Role == store.ClubOwner || c.Role == store.ClubHost {
				out = append(out, account.ClubJSON{ID: c.Club, Name: c.Name, Role: string(c.Role)})
			}
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"clubs": out})
}
