package clubhttp

// This file serves the organiser's screen of a club's tournaments
// (docs/club.md, The organiser's screen): a page that makes a tournament
// from the club's roster and, for each tournament, seats its rounds, shows
// every table's seats and its game linked or missing, links or frees a
// table's game, seats the final (the finalists named when the cut falls in
// a shared place) and closes it; an online tournament's round it opens
// online, shows each table's state and starts a waiting table, and a
// finished online table takes its extra points (by the organiser or the
// tournament's referee: referee.go), as does a real table's linked game,
// in place of its host's (table_extra.go). The server tells the page who
// views it (the tournament's role: the organiser, the referee or the
// public), and the page shows each only what the server lets them do. The
// page is a shell in the reader's language (organiser.html, its sentences
// from the catalogs); its script
// (static/organiser.js) calls the tournaments' API (tournaments.go) with
// the club's code kept on the phone, or the login of an owner or host, and
// shows each refusal's sentence as the API gives it, in the page's language.

import (
	"embed"
	"encoding/json"
	"html/template"
	"net/http"
	"strings"

	"mafia/club"
	"mafia/tournament"
)

// organiserFS holds the organiser's screen's script and style.
//
//go:embed static/organiser.js static/organiser.css
var organiserFS embed.FS

// organiserRoutes adds the organiser's screen to the club's mux.
func (h *Handler) organiserRoutes(m *http.ServeMux) {
	m.HandleFunc("GET /host/clubs/{club}/organiser", h.serveOrganiser)
	m.HandleFunc("GET /host/clubs/{club}/organiser/{t}", h.serveOrganiser)
	m.HandleFunc("GET /host/clubs/organiser.js", serveOrganiserFile("static/organiser.js", "text/javascript; charset=utf-8"))
	m.HandleFunc("GET /host/clubs/organiser.css", serveOrganiserFile("static/organiser.css", "text/css; charset=utf-8"))
}

// serveOrganiserFile serves one of the screen's files, revalidated each
// time (they change with the program).
func serveOrganiserFile(name, kind string) http.HandlerFunc {
	b, err := organiserFS.ReadFile(name)
	if err != nil {
		panic(err) // embedded above: a build without it does not compile
	}
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", kind)
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		_, _ = w.Write(b)
	}
}

// organiserMessages are the catalog ids the screen's script shows, each
// rendered in the page's language; {N} stands for a number the script
// fills in ({Game} a game's id, {Names} the players a table waits for,
// {Name} the referee's account, {Min} and {Max} the extra points' range).
var organiserMessages = []string{"organiser.title", "organiser.new", "organiser.list", "organiser.none",
	"organiser.name", "organiser.from", "organiser.to", "organiser.players", "organiser.players_n", "organiser.scoring",
	"organiser.scoring_own", "assist.club.scoring_preset_club", "assist.club.scoring_preset_fiim", "organiser.tie_breaks",
	"organiser.tie_none", "organiser.tables", "organiser.seats", "organiser.games", "organiser.final_size",
	"organiser.final_games", "organiser.final_factor", "assist.club.host", "assist.club.referee", "organiser.avoid",
	"organiser.avoid_add", "organiser.avoid_remove", "organiser.seed", "organiser.create", "organiser.seat_rounds",
	"organiser.seat_final", "organiser.finalists", "organiser.finalists_seat", "organiser.close", "organiser.missing",
	"organiser.linked", "organiser.game_id", "organiser.link", "organiser.unlink", "organiser.setup", "organiser.standings",
	"organiser.csv", "organiser.no_access", "organiser.club_screen", "organiser.offline", "organiser.done",
	"organiser.back", "organiser.manage", "tournament.round", "tournament.final_game", "tournament.table", "organiser.seat",
	"tournament.state.open", "tournament.state.rounds", "tournament.state.final", "tournament.state.closed",
	"organiser.online", "organiser.no_show", "organiser.no_show_stand_in", "organiser.no_show_forfeit", "organiser.wait",
	"organiser.rated", "organiser.open_online", "organiser.online_waiting", "organiser.online_waiting_for",
	"organiser.online_playing", "organiser.online_finished", "organiser.online_link", "organiser.start_now",
	"organiser.forfeit", "organiser.timings", "web.timing.speech", "web.timing.defence", "web.timing.tie_speech",
	"web.timing.last_words", "web.timing.night", "web.timing.vote", "organiser.referee_account", "organiser.referee_login",
	"organiser.extra", "organiser.extra_range", "organiser.extra_save", "organiser.extra_saved", "organiser.extra_at_table",
	"organiser.referee_change", "organiser.referee_save", "organiser.you_referee", "organiser.you_public",
	"organiser.extra_rule", "organiser.extra_counting_host", "organiser.extra_counting_here"}

// organiserPage is the screen's shell: the club, the tournament (empty on
// the making page), the sentences, and the scoring presets' numbers.
type organiserPage struct {
	page
	ClubID, Tournament string
	Data               template.JS
}

// organiserData is what the script reads from the page (a JSON block,
// never run): its sentences, the tie-breaks in the form's order, the
// default order, and each preset's numbers.
type organiserData struct {
	Lang      string                  `json:"lang"`
	Messages  map[string]string       `json:"messages"`
	TieBreaks []tournament.TieBreak   `json:"tie_breaks"`
	Default   []tournament.TieBreak   `json:"default_tie_breaks"`
	Presets   map[string]club.Scoring `json:"presets"`
}

func (h *Handler) serveOrganiser(w http.ResponseWriter, r *http.Request) {
	pg := h.newPage(r)
	d := organiserData{Lang: pg.Lang, Messages: map[string]string{}, TieBreaks: tournament.TieBreaks,
		Default: tournament.DefaultTieBreaks, Presets: map[string]club.Scoring{}}
	n := map[string]any{"N": "{N}", "Game": "{Game}", "Names": "{Names}", "Name": "{Name}", "Min": "{Min}", "Max": "{Max}"}
	for _, id := range organiserMessages {
		d.Messages[id] = pg.p.T(id, n)
	}
	for _, tb := range tournament.TieBreaks {
		d.Messages["organiser.tie."+string(tb)] = pg.p.T("organiser.tie."+string(tb), nil)
	}
	for _, name := range club.PresetNames {
		d.Presets[name], _ = club.PresetScoring(name)
	}
	b, _ := json.Marshal(d)
	// In a <script type="application/json"> block only "</" could end it early.
	js := strings.ReplaceAll(string(b), "</", `<\/`)
	render(w, http.StatusOK, "organiser.html", organiserPage{page: pg, ClubID: r.PathValue("club"),
		Tournament: r.PathValue("t"), Data: template.JS(js)})
}
