-- The clubs (store.Clubs): a club, its roster of people (who may have no
-- account: account_id stays NULL until the accounts link an entry to one),
-- the merges of two entries (the merged entry keeps its row, with
-- merged_into naming the entry its games count under), its seasons, and
-- the index of its in-person games (the game itself is the table's row,
-- its data and its events, as before). The existing tables and their rows
-- are not touched. Times are UTC text as in 00001; days are YYYY-MM-DD.

-- +goose Up
CREATE TABLE clubs (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    scoring    BLOB,
    created_at TEXT NOT NULL
) STRICT;

CREATE TABLE club_people (
    club_id     TEXT NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    id          TEXT NOT NULL,
    name        TEXT NOT NULL,
    merged_into TEXT,
    account_id  TEXT,
    created_at  TEXT NOT NULL,
    PRIMARY KEY (club_id, id)
) STRICT, WITHOUT ROWID;

CREATE TABLE club_merges (
    club_id   TEXT NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,
    from_id   TEXT NOT NULL,
    into_id   TEXT NOT NULL,
    at        TEXT NOT NULL,
    PRIMARY KEY (club_id, seq)
) STRICT, WITHOUT ROWID;

CREATE TABLE club_seasons (
    club_id   TEXT NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    id        TEXT NOT NULL,
    name      TEXT NOT NULL,
    from_day  TEXT NOT NULL,
    to_day    TEXT NOT NULL,
    PRIMARY KEY (club_id, id)
) STRICT, WITHOUT ROWID;

CREATE TABLE club_games (
    club_id   TEXT NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    table_id  TEXT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    day       TEXT NOT NULL,
    PRIMARY KEY (club_id, table_id)
) STRICT, WITHOUT ROWID;

CREATE INDEX club_games_by_day ON club_games (club_id, day);

-- +goose Down
DROP TABLE club_games;
DROP TABLE club_seasons;
DROP TABLE club_merges;
DROP TABLE club_people;
DROP TABLE clubs;
