package assist

import (
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"time"

	"mafia/assist/record"
	"mafia/engine"
	"mafia/internal/httpapi"
	"mafia/store"
)

// The codes of refusals of a game the phone made.
const (
	CodeBadGameID    engine.Code = "bad_game_id"    // the phone's game id is not 16 hex digits
	CodeBadHostToken engine.Code = "bad_host_token" // the phone's host token is not 32 to 64 hex digits
	CodeIDTaken      engine.Code = "id_taken"       // another game holds the id
	CodeDealMismatch engine.Code = "deal_mismatch"  // the server's deal from the seed differs from the phone's
)

// GameIDLen is the length of a game's id: lowercase hex digits.
const GameIDLen = 16

// maxPhoneAge is how far back a phone may date a game it made (an older
// date, or one in the future, is taken as now: a phone's clock may be
// wrong).
const maxPhoneAge = 14 * 24 * time.Hour

// phoneGame is what a phone adds to a create it made itself while the
// server could not be reached: it dealt the cards with its copy of the
// engine (the same bridge.NewGame.Settings), and plays under its own id and
// host token until the server holds the game.
type phoneGame struct {
	ID        string     `json:"id,omitempty"`         // GameIDLen hex digits
	HostToken string     `json:"host_token,omitempty"` // 32 to 64 hex digits
	Seed      string     `json:"seed,omitempty"`       // the deal's seed in decimal ("0" or none for a deal by hand)
	Dealt     []string   `json:"dealt,omitempty"`      // the cards the phone dealt, seat 1 first
	Created   *time.Time `json:"created,omitempty"`    // when the phone made the game
}

// given reports whether a create carries a phone's game.
func (p *phoneGame) given() bool {
	return p.ID != "" || p.HostToken != "" || p.Seed != "" || p.Dealt != nil || p.Created != nil
}

// isHex reports whether s has n to m lowercase hex digits and nothing else.
func isHex(s string, n, m int) bool {
	if len(s) < n || len(s) > m {
		return false
	}
	for _, c := range []byte(s) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// seed checks the phone's seed for a deal mode.
func (p *phoneGame) seed(deal string) (uint64, error) {
	if deal == record.DealManual {
		if p.Seed != "" && p.Seed != "0" {
			return 0, &engine.Error{Code: record.CodeBadSettings, Name: "seed"}
		}
		return 0, nil
	}
	if p.Seed == "" || len(p.Seed) > 20 || p.Seed[0] == '+' {
		return 0, &engine.Error{Code: record.CodeBadSettings, Name: "seed"}
	}
	n, err := strconv.ParseUint(p.Seed, 10, 64)
	if err != nil {
		return 0, &engine.Error{Code: record.CodeBadSettings, Name: "seed"}
	}
	return n, nil
}

// createPhoneGame stores a game the host's phone made offline, under the
// phone's id and host token, dealt from the phone's seed: the server deals
// again from the same seed and refuses a deal that differs from the
// phone's (deal_mismatch), since the cards are already in the players'
// hands. The same create sent again (its answer was lost) is answered as
// the first was; a different create under an id already held is refused
// with id_taken. Card links need the server at the deal, so a phone never
// makes a DealLinks game.
func (h *Handler) createPhoneGame(w http.ResponseWriter, r *http.Request, req *createRequest) {
	p := &req.phoneGame
	switch {
	case !isHex(p.ID, GameIDLen, GameIDLen):
		h.fail(w, r, &engine.Error{Code: CodeBadGameID, N: GameIDLen}, nil)
		return
	case !isHex(p.HostToken, 32, 64):
		h.fail(w, r, &engine.Error{Code: CodeBadHostToken}, nil)
		return
	case req.Deal == record.DealLinks:
		h.fail(w, r, &engine.Error{Code: record.CodeBadSettings, Name: "deal_links"}, nil)
		return
	}
	seed, err := p.seed(req.Deal)
	if err != nil {
		h.fail(w, r, err, nil)
		return
	}
	s, err := req.NewGame.Settings(func() uint64 { return seed })
	if err != nil {
		h.fail(w, r, err, nil)
		return
	}
	if p.Dealt == nil && req.Deal != record.DealManual {
		h.fail(w, r, &engine.Error{Code: httpapi.CodeBadRequest, Name: "dealt"}, nil)
		return
	}
	if p.Dealt != nil && !slices.Equal(p.Dealt, s.Roles) {
		h.fail(w, r, &engine.Error{Code: CodeDealMismatch}, nil)
		return
	}
	now := h.cfg.Now()
	created := now
	if p.Created != nil && !p.Created.After(now) && now.Sub(*p.Created) <= maxPhoneAge {
		created = p.Created.UTC()
	}
	if h.samePhoneGame(w, r, p, &s) {
		return
	}
	reply, err := h.storeGame(r, p.ID, p.HostToken, s, created, req.ClubToken)
	if errors.Is(err, store.ErrConflict) {
		if !h.samePhoneGame(w, r, p, &s) {
			// The id is held by a table of another kind (an online one),
			// which the assistant does not read.
			h.fail(w, r, &engine.Error{Code: CodeIDTaken}, nil)
		}
		return // or the same create, sent twice at once
	}
	if err != nil {
		h.fail(w, r, err, nil)
		return
	}
	h.setHostCookie(w, r, p.ID, p.HostToken)
	writeJSON(w, http.StatusCreated, reply)
}

// samePhoneGame answers the create itself when the store holds in-person
// table p.ID already: as the first answer if it is this very game (the
// host's token and the settings are the same), else with id_taken. It
// returns false when there is no such in-person table.
func (h *Handler) samePhoneGame(w http.ResponseWriter, r *http.Request, p *phoneGame, s *record.Settings) bool {
	t, _, err := h.cfg.Store.Table(r.Context(), store.KindInPerson, p.ID)
	if errors.Is(err, store.ErrNotFound) {
		return false
	}
	if err != nil {
		h.fail(w, r, err, nil)
		return true
	}
	var st stored
	if (t.Status != StatusLive && t.Status != StatusEnded) || !tokenMatches(p.HostToken, t.HostToken) ||
		json.Unmarshal(t.Data, &st) != nil || st.InPerson == nil || !sameSettings(&st.InPerson.Settings, s) {
		h.fail(w, r, &engine.Error{Code: CodeIDTaken}, nil)
		return true
	}
	h.setHostCookie(w, r, p.ID, p.HostToken)
	writeJSON(w, http.StatusOK, createReply{ID: p.ID, HostToken: p.HostToken, Settings: st.InPerson.Settings})
	return true
}

// sameSettings compares two games' settings as the store keeps them.
func sameSettings(a, b *record.Settings) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}
