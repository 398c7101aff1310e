-- The players' ratings (store.Ratings, package rating; docs/ratings.md).
-- ratings: a player's rating of each kind now (player: a string id, an
-- account's; kind overall, town or mafia), with the games that changed it.
-- rating_changes: every change, one row per game, player and kind, with the
-- side played, the rating before and after, won and left (left early: rated
-- as losing). rated_games: the games rated, so that a game is rated once.
-- at is Unix milliseconds. Readable with the sqlite3 CLI, e.g.
-- SELECT player, mu - 3 * sigma AS ordinal FROM ratings WHERE kind = 'overall' ORDER BY ordinal DESC.

-- +goose Up
CREATE TABLE ratings (
    player TEXT NOT NULL,
    kind   TEXT NOT NULL CHECK (kind IN ('overall', 'town', 'mafia')),
    mu     REAL NOT NULL,
    sigma  REAL NOT NULL CHECK (sigma > 0),
    games  INTEGER NOT NULL,
    wins   INTEGER NOT NULL,
    at     INTEGER NOT NULL,
    PRIMARY KEY (player, kind)
) STRICT, WITHOUT ROWID;

CREATE INDEX ratings_by_ordinal ON ratings (kind, mu - 3 * sigma DESC);

CREATE TABLE rated_games (
    game   TEXT PRIMARY KEY,
    at     INTEGER NOT NULL,
    winner TEXT NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TABLE rating_changes (
    game         TEXT NOT NULL REFERENCES rated_games (game) ON DELETE CASCADE,
    player       TEXT NOT NULL,
    kind         TEXT NOT NULL CHECK (kind IN ('overall', 'town', 'mafia')),
    side         TEXT NOT NULL CHECK (side IN ('town', 'mafia', 'maniac')),
    mu_before    REAL NOT NULL,
    sigma_before REAL NOT NULL,
    mu           REAL NOT NULL,
    sigma        REAL NOT NULL,
    won          INTEGER NOT NULL,
    left_early   INTEGER NOT NULL,
    at           INTEGER NOT NULL,
    PRIMARY KEY (game, player, kind)
) STRICT, WITHOUT ROWID;

CREATE INDEX rating_changes_by_player ON rating_changes (player, at);
CREATE INDEX rating_changes_by_season ON rating_changes (kind, at);

-- +goose Down
DROP TABLE rating_changes;
DROP TABLE rated_games;
DROP TABLE ratings;
