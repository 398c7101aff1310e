-- Accounts, clubs and ratings on PostgreSQL: the shape store/sqlite's
-- migrations 00006 (accounts), 00007 (clubs) and 00008 (ratings) end up
-- with. The seats' account columns are 00001's already.
--
-- Ids and keys that lists are ordered by (a player's id, a game's, a roster
-- entry's) are text COLLATE "C": byte order, as SQLite compares them, so
-- that both stores list ties alike whatever the database's locale. An
-- account's key is its name in NFC, case-folded (package account makes it);
-- it is unique byte for byte, so "nino" and "ნინო" are two accounts and
-- "Nino" and "NINO" one. Only hashes of tokens are kept. Times are Unix
-- nanoseconds (bigint, columns named *_ns) as in 00001, but a rating's at,
-- Unix milliseconds as in SQLite's 00008.

-- +goose Up
CREATE TABLE accounts (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name           text NOT NULL,
    key            text COLLATE "C" NOT NULL UNIQUE,
    password_hash  text NOT NULL,
    owner_id       bigint NOT NULL DEFAULT 0,
    bot_token_hash text NOT NULL DEFAULT '',
    created_ns     bigint NOT NULL
);

CREATE INDEX accounts_by_owner ON accounts (owner_id, id) WHERE owner_id <> 0;
CREATE UNIQUE INDEX accounts_by_bot_token ON accounts (bot_token_hash) WHERE bot_token_hash <> '';

CREATE TABLE sessions (
    token_hash text PRIMARY KEY,
    account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_ns bigint NOT NULL,
    expires_ns bigint NOT NULL
);

CREATE INDEX sessions_by_account ON sessions (account_id, expires_ns);

-- The clubs (store.Clubs): a club, its roster (account_id stays NULL until
-- the accounts link an entry to one), the merges of two entries (the merged
-- entry keeps its row, merged_into naming the entry its games count under),
-- its seasons (days YYYY-MM-DD), and the index of its in-person games (the
-- game itself is the table's row, its data and its events).
CREATE TABLE clubs (
    id         text COLLATE "C" PRIMARY KEY,
    name       text NOT NULL,
    token_hash text NOT NULL,
    scoring    bytea,
    created_ns bigint NOT NULL
);

CREATE TABLE club_people (
    club_id     text COLLATE "C" NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    id          text COLLATE "C" NOT NULL,
    name        text NOT NULL,
    merged_into text COLLATE "C",
    account_id  text,
    created_ns  bigint NOT NULL,
    PRIMARY KEY (club_id, id)
);

CREATE TABLE club_merges (
    club_id text COLLATE "C" NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    seq     integer NOT NULL,
    from_id text COLLATE "C" NOT NULL,
    into_id text COLLATE "C" NOT NULL,
    at_ns   bigint NOT NULL,
    PRIMARY KEY (club_id, seq)
);

CREATE TABLE club_seasons (
    club_id  text COLLATE "C" NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    id       text COLLATE "C" NOT NULL,
    name     text NOT NULL,
    from_day text COLLATE "C" NOT NULL,
    to_day   text COLLATE "C" NOT NULL,
    PRIMARY KEY (club_id, id)
);

CREATE TABLE club_games (
    club_id  text COLLATE "C" NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    table_id text NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    day      text COLLATE "C" NOT NULL,
    PRIMARY KEY (club_id, table_id)
);

CREATE INDEX club_games_by_day ON club_games (club_id, day);

-- The players' ratings (store.Ratings, package rating; docs/ratings.md):
-- ratings, a player's rating of each kind now; rating_changes, every change
-- (one row per game, player and kind); rated_games, the games rated, so that
-- a game is rated once. Readable with psql, e.g.
-- SELECT player, mu - 3 * sigma AS ordinal FROM ratings WHERE kind = 'overall' ORDER BY ordinal DESC.
CREATE TABLE ratings (
    player text COLLATE "C" NOT NULL,
    kind   text NOT NULL CHECK (kind IN ('overall', 'town', 'mafia')),
    mu     double precision NOT NULL,
    sigma  double precision NOT NULL CHECK (sigma > 0),
    games  integer NOT NULL,
    wins   integer NOT NULL,
    at     bigint NOT NULL,
    PRIMARY KEY (player, kind)
);

CREATE INDEX ratings_by_ordinal ON ratings (kind, (mu - 3 * sigma) DESC, games DESC, player);

CREATE TABLE rated_games (
    game   text COLLATE "C" PRIMARY KEY,
    at     bigint NOT NULL,
    winner text NOT NULL
);

CREATE TABLE rating_changes (
    game         text COLLATE "C" NOT NULL REFERENCES rated_games (game) ON DELETE CASCADE,
    player       text COLLATE "C" NOT NULL,
    kind         text NOT NULL CHECK (kind IN ('overall', 'town', 'mafia')),
    side         text NOT NULL CHECK (side IN ('town', 'mafia', 'maniac')),
    mu_before    double precision NOT NULL,
    sigma_before double precision NOT NULL,
    mu           double precision NOT NULL,
    sigma        double precision NOT NULL,
    won          boolean NOT NULL,
    left_early   boolean NOT NULL,
    at           bigint NOT NULL,
    PRIMARY KEY (game, player, kind)
);

CREATE INDEX rating_changes_by_player ON rating_changes (player, at);
CREATE INDEX rating_changes_by_season ON rating_changes (kind, at);

-- +goose Down
DROP TABLE rating_changes;
DROP TABLE rated_games;
DROP TABLE ratings;
DROP TABLE club_games;
DROP TABLE club_seasons;
DROP TABLE club_merges;
DROP TABLE club_people;
DROP TABLE clubs;
DROP TABLE sessions;
DROP TABLE accounts;
