package tournament

import (
	"errors"
	"strings"
	"testing"

	"mafia/engine"
)

// TestSetReferee_NamesTheAccountAndRefusesWhatCannotBeKept pins the
// referee's naming: the name shown defaults to the account's, an account
// of 0 drops the account's name, a name too long or an account below 0 is
// refused bad_tournament (referee) and a closed tournament
// tournament_state, each leaving the referee as it was; only the named
// account is the referee (never 0, no login).
func TestSetReferee_NamesTheAccountAndRefusesWhatCannotBeKept(t *testing.T) {
	for _, c := range []struct {
		rule        string
		state       string
		name, login string
		account     int64
		want        engine.Code
		shown, kept string
	}{
		{"the name shown defaults to the account's", StateRounds, "", "Nino", 7, "", "Nino", "Nino"},
		{"a name given is shown beside the account", StateOpen, " ნინო ", "Nino", 7, "", "ნინო", "Nino"},
		{"no account drops the account's name", StateRounds, "Nino", "Nino", 0, "", "Nino", ""},
		{"a name too long is refused", StateRounds, strings.Repeat("ნ", MaxName+1), "", 0, CodeBadTournament, "old", "Old"},
		{"an account below 0 is refused", StateRounds, "x", "x", -1, CodeBadTournament, "old", "Old"},
		{"a closed tournament is refused", StateClosed, "Nino", "Nino", 7, CodeTournamentState, "old", "Old"},
	} {
		t.Run(c.rule, func(t *testing.T) {
			tr := Tournament{State: c.state, Referee: "old", RefereeAccount: 3, RefereeLogin: "Old"}
			err := tr.SetReferee(c.name, c.account, c.login)
			var e *engine.Error
			if c.want == "" && err != nil || c.want != "" && (!errors.As(err, &e) || e.Code != c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
			if tr.Referee != c.shown || tr.RefereeLogin != c.kept {
				t.Errorf("referee %q, account %q; want %q, %q", tr.Referee, tr.RefereeLogin, c.shown, c.kept)
			}
			if c.want == "" && (tr.IsReferee(c.account) != (c.account != 0) || tr.IsReferee(0) || tr.IsReferee(c.account+1)) {
				t.Errorf("IsReferee wrong for account %d", c.account)
			}
		})
	}
}
