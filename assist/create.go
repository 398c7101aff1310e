package assist

import (
	"crypto/rand"
	"encoding/binary"
	"net/http"
	"strconv"
	"time"

	"mafia/assist/bridge"
	"mafia/assist/record"
	"mafia/club"
	"mafia/internal/secret"
	"mafia/locale"
	"mafia/store"
)

// createRequest is the body of POST /host/api/games: the new game, and,
// for a game the host's phone made while the server could not be reached,
// the phone's id, host token, seed and deal (create_phone.go).
type createRequest struct {
	bridge.NewGame
	phoneGame
	// ClubToken is the token of the club the game names (Club.Club), which
	// the game's record needs to count for it (docs/club.md).
	ClubToken string `json:"club_token,omitempty"`
}

// Card is one player's card link (DealLinks): the page at URL shows seat's
// card to whoever holds the token (in the link's fragment, never sent in a
// request line).
type Card struct {
	Seat  int    `json:"seat"`
	Name  string `json:"name"`
	URL   string `json:"url"` // path and fragment: /host/card/{id}/{seat}#{token}
	Token string `json:"token"`
}

// createReply answers a create: the game's id, the host's secret token (only
// its hash is stored), the settings with the deal, and the card links.
type createReply struct {
	ID        string          `json:"id"`
	HostToken string          `json:"host_token"`
	Settings  record.Settings `json:"settings"`
	Cards     []Card          `json:"cards,omitempty"`
}

// createGame makes an in-person game: checks the settings, deals the cards
// (a seeded shuffle of the setup, or the host's hand deal), and stores the
// table with its first events. The host's token is also set as a cookie for
// /host/ so that the printable protocol opens in a new tab. A game the
// phone made offline is taken as the phone made it (createPhoneGame).
func (h *Handler) createGame(w http.ResponseWriter, r *http.Request) {
	if h.foreign(w, r) {
		return
	}
	var req createRequest
	if err := decode(r, &req, 32<<10); err != nil {
		h.fail(w, r, err, nil)
		return
	}
	if !h.allowNewGame(w, r) {
		return
	}
	if req.phoneGame.given() {
		h.createPhoneGame(w, r, &req)
		return
	}
	s, err := req.NewGame.Settings(h.cfg.Seed)
	if err != nil {
		h.fail(w, r, err, nil)
		return
	}
	reply, err := h.storeGame(r, secret.Token()[:16], secret.Token(), s, h.cfg.Now(), req.ClubToken)
	if err != nil {
		h.fail(w, r, err, nil)
		return
	}
	h.setHostCookie(w, r, reply.ID, reply.HostToken)
	writeJSON(w, http.StatusCreated, reply)
}

// storeGame starts the game of s and stores it as table id with host's
// token (only its hash is kept) and its first events; it answers with the
// card links of a DealLinks game.
func (h *Handler) storeGame(r *http.Request, id, host string, s record.Settings, created time.Time, clubToken string) (*createReply, error) {
	g, evs, err := record.Start(&s)
	if err != nil {
		return nil, err
	}
	if err := h.checkClubGame(r, &s, clubToken); err != nil {
		return nil, err
	}
	gm := &game{rec: inPerson{Settings: s, Commands: []record.Command{}, Account: h.loggedIn(r),
		Cohosts: h.refereeInvitation(r, &s)}, g: g, log: evs}
	name := s.Name
	if name == "" {
		name = locale.New(langOf(r)).T("assist.default_name", nil)
	}
	gm.table = store.Table{ID: id, Kind: store.KindInPerson, Name: name, Status: StatusLive, HostToken: secret.Hash(host), Seed: g.Seed(),
		CreatedAt: created, UpdatedAt: h.cfg.Now()}
	gm.table.Data = gm.data()
	reply := &createReply{ID: id, HostToken: host, Settings: s}
	for i, n := range s.Names {
		seat := store.Seat{Seat: i + 1, Name: n}
		if s.Deal == record.DealLinks {
			tok := secret.Token()
			seat.TokenHash = secret.Hash(tok)
			reply.Cards = append(reply.Cards, Card{Seat: i + 1, Name: n, Token: tok,
				URL: "/host/card/" + id + "/" + strconv.Itoa(i+1) + "#" + tok})
		}
		gm.seats = append(gm.seats, seat)
	}
	if err := h.cfg.Store.CreateTable(r.Context(), gm.table, gm.seats); err != nil {
		return nil, err
	}
	if err := h.cfg.Store.AppendEvents(r.Context(), id, 0, evs); err != nil {
		return nil, err
	}
	if s.Club != nil && s.Club.Club != "" {
		day := created.UTC().Format(club.DateLayout)
		if s.Club.Day != "" {
			day = s.Club.Day
		}
		if err := h.cfg.Clubs.AddGame(r.Context(), s.Club.Club, store.ClubGame{TableID: id, Day: day}); err != nil {
			return nil, err
		}
		// A tournament's table: the game is linked to it; a refusal (the
		// table played already, another player seated) leaves the game as
		// it is, a club's game the organiser links by hand.
		if tt := s.Club.Tournament; tt != nil {
			if err := h.cfg.Clubs.LinkTournament(r.Context(), s.Club.Club, tt.ID, tt.Round, tt.Table, id, s.Club.People); err != nil {
				h.cfg.Log.Info("assist: a tournament's game not linked to its table", "game", id, "tournament", tt.ID,
					"round", tt.Round, "table", tt.Table, "err", err)
			}
		}
	}
	h.mu.Lock()
	h.games.add(id, gm)
	h.mu.Unlock()
	return reply, nil
}

// setHostCookie sets the game's host token as a cookie for /host/: Secure
// when the guard says the client came over https (the public URL, TLS, or
// a trusted proxy).
func (h *Handler) setHostCookie(w http.ResponseWriter, r *http.Request, id, host string) {
	http.SetCookie(w, &http.Cookie{Name: hostCookie(id), Value: host, Path: "/host/", HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: h.cfg.Guard.Secure(r), MaxAge: 30 * 24 * 3600})
}

// randomSeed returns a seed from the system's randomness.
func randomSeed() uint64 {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("assist: no randomness: " + err.Error())
	}
	return binary.LittleEndian.Uint64(b[:])
}
