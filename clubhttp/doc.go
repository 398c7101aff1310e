// Package clubhttp is a club's home on the web (docs/club.md): the HTTP of
// the clubs, which package club's rules (scoring, standings, the roster)
// stay pure of. It owns a club's routes under /host/api/clubs… (kept at the
// paths the host's assistant has always called, so installed phones go on
// working): making and changing a club, its roster (search, add, rename,
// merge, links to accounts), its members and their roles, its seasons, the
// standings and the CSV of its games (the club's public sheet, and the
// printable standings under /host/clubs/…); the club's leaderboard
// (GET /api/clubs/{club}/ratings, where GET /api/ratings?club= is sent);
// and the clubs' part of a player's page (PlayerClubs).
//
// It is mounted by internal/site beside the accounts (site.WithClubs) and
// takes what it needs in its Config: the store's capabilities, typed
// (Store), and the games a club counts (Games), which the host's assistant
// offers (assist.ClubGames) without this package importing it. The other
// way, the assistant reaches a club through the small interface it
// declares (assist.Clubs), which Handler implements: a game's scoring, the
// roster a new game may seat, the record of a game for its club, and who
// sees a club's games.
//
// It must not decide a club's rules (package club does), nor keep a game
// (the assistant does).
package clubhttp
