package server

import (
	"testing"
	"time"

	"mafia/client"
)

// TestSeats_ABotAccountsSeatShowsItsOwnerAcrossARestart (issue 25, item
// 8): a bot account's seat shows the account that owns it to everyone
// (the lobby's seat "owner"), a person's seat shows none, and a server
// started again on the same file shows it still (room.Config.OwnerOf).
func TestSeats_ABotAccountsSeatShowsItsOwnerAcrossARestart(t *testing.T) {
	as := ratedServer(t, "", false)
	ctx := within(t, 60*time.Second)
	creds, _ := ratedPlayers(t, ctx, as) // Nino, Gio, and five bots of Nino's
	created, err := as.api.Create(ctx, client.CreateRequest{Name: "owners", Players: 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{creds[0], creds[1], creds[2]} { // Nino, Gio, Robo1
		if _, err := as.api.Join(ctx, created.Table, "ignored", 0, c); err != nil {
			t.Fatal(err)
		}
	}
	check := func(when string, api *client.API) {
		t.Helper()
		l, err := api.Table(ctx, created.Table)
		if err != nil {
			t.Fatal(err)
		}
		owners := map[string]string{}
		for _, s := range l.Seats {
			if s.Taken {
				owners[s.Name] = s.Owner
			}
		}
		if owners["Robo1"] != "Nino" || owners["Nino"] != "" || owners["Gio"] != "" {
			t.Errorf("%s: the seats' owners %q, want Robo1's Nino and no other", when, owners)
		}
	}
	check("at the join", as.api)
	path := as.path
	as.close()
	again := ratedServer(t, path, false)
	check("after a restart", again.api)
}
