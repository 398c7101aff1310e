-- The clubs' tournaments (store.Tournaments): one row each, the tournament
-- itself as JSON (package tournament) beside what a club's list shows, and
-- a version that each update checks and bumps. Times are UTC text as in
-- 00001.

-- +goose Up
CREATE TABLE tournaments (
    id         TEXT PRIMARY KEY,
    club_id    TEXT NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    state      TEXT NOT NULL,
    data       BLOB NOT NULL,
    version    INTEGER NOT NULL,
    created_at TEXT NOT NULL
) STRICT;

CREATE INDEX tournaments_by_club ON tournaments (club_id, created_at);

-- +goose Down
DROP TABLE tournaments;
