package assist

// This file invites a co-host by their account: a tournament's referee
// with an account on the site is named in the invitation, and joins from
// the assistant's home while logged in, without a code (the invitation's
// one-time code works too). Only the account's id and name are kept.

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"mafia/account"
	"mafia/engine"
	"mafia/store"
)

// CodeCohostNoAccount refuses an invitation naming an account the site
// does not have (Value: the name given).
const CodeCohostNoAccount engine.Code = "cohost_no_account"

// MaxInvitations is how many invitations GET /host/api/invitations lists.
const MaxInvitations = 50

// invitedAccount finds the account an invitation names: its id and the
// name as it shows (0 for none given); an unknown name, a bot, or a site
// without accounts is refused with CodeCohostNoAccount.
func (h *Handler) invitedAccount(r *http.Request, name string) (int64, string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return 0, "", nil
	}
	refused := &engine.Error{Code: CodeCohostNoAccount, Value: name}
	st, ok := h.cfg.Store.(store.Accounts) // the site's stores keep the accounts beside the games
	if h.cfg.Accounts == nil || !ok || len(name) > 64 {
		return 0, "", refused
	}
	a, err := account.Find(r.Context(), st, name)
	if errors.Is(err, store.ErrNotFound) || (err == nil && a.IsBot()) {
		return 0, "", refused
	}
	if err != nil {
		return 0, "", err
	}
	return a.ID, a.Name, nil
}

// Invitation is one game a logged-in account is invited to follow.
type Invitation struct {
	Game   string `json:"game"`
	Name   string `json:"name"`   // the game's name
	As     string `json:"as"`     // the name the host invited them by
	Joined bool   `json:"joined"` // they follow it already (from some phone)
}

// invitations answers GET /host/api/invitations: the games going on that
// name the logged-in account as a co-host (not revoked), newest first; no
// login, none.
func (h *Handler) invitations(w http.ResponseWriter, r *http.Request) {
	out := []Invitation{}
	me := h.loggedIn(r)
	if me != 0 {
		tables, err := h.cfg.Store.Tables(r.Context(), store.KindInPerson, store.TableFilter{Status: StatusLive, Limit: scanGames})
		if err != nil {
			h.fail(w, r, err, nil)
			return
		}
		for _, t := range tables {
			var c stored
			if json.Unmarshal(t.Data, &c) != nil || c.InPerson == nil {
				continue
			}
			for _, co := range c.InPerson.Cohosts {
				if co.Account == me && co.Revoked == nil && len(out) < MaxInvitations {
					out = append(out, Invitation{Game: t.ID, Name: t.Name, As: co.Name, Joined: co.Joined != nil})
				}
			}
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"invitations": out})
}

// joinByAccount answers POST /host/api/games/{id}/cohosts/account: the
// logged-in account the game's invitation names gets a co-host's key
// (shown once) without the code, and the code is spent. Joining again
// (another phone) gives a new key and stops the one before. Anybody
// else is refused not_cohost.
func (h *Handler) joinByAccount(w http.ResponseWriter, r *http.Request) {
	if h.foreign(w, r) {
		return
	}
	me := h.loggedIn(r)
	if me == 0 {
		h.fail(w, r, &engine.Error{Code: CodeNotCohost}, nil)
		return
	}
	gm, err := h.locked(r.Context(), r.PathValue("id"))
	if err != nil {
		h.fail(w, r, err, nil)
		return
	}
	defer h.unlock(gm)
	at := -1
	for i, c := range gm.rec.Cohosts {
		if c.Account == me && c.Revoked == nil {
			at = i
		}
	}
	if at < 0 {
		h.fail(w, r, &engine.Error{Code: CodeNotCohost}, nil)
		return
	}
	h.admitCohost(w, r, gm, at)
}
