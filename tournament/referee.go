package tournament

import (
	"strings"
	"unicode/utf8"

	"mafia/engine"
)

// CodeNotReferee refuses a change of a tournament that only its referee
// (or a host of the club) may make, asked by a logged-in account that is
// neither: the extra points of its tables.
const CodeNotReferee engine.Code = "not_referee"

func init() { Kinds[CodeNotReferee] = engine.KindForbidden }

// SetReferee names the tournament's referee: name as shown (empty: the
// account's name, login) and their account on the site (0: none, login
// then dropped),
// in place of the referee named before; refused (CodeBadTournament,
// "referee") for a name too long or an account below 0, and
// (CodeTournamentState) once the tournament is closed.
func (t *Tournament) SetReferee(name string, account int64, login string) error {
	if t.State == StateClosed {
		return &engine.Error{Code: CodeTournamentState, Name: t.State}
	}
	name = strings.TrimSpace(name)
	if name == "" {
		name = strings.TrimSpace(login)
	}
	if account == 0 {
		login = ""
	}
	if utf8.RuneCountInString(name) > MaxName || account < 0 {
		return bad("referee")
	}
	t.Referee, t.RefereeAccount, t.RefereeLogin = name, account, login
	return nil
}

// IsReferee reports whether account (0: no login) is the tournament's
// referee's account.
func (t *Tournament) IsReferee(account int64) bool {
	return account != 0 && t.RefereeAccount == account
}
