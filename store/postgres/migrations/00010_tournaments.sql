-- The clubs' tournaments (store.Tournaments), as store/sqlite's migration
-- 00015: one row each, the tournament as JSON (package tournament) beside
-- what a club's list shows, and a version each update checks and bumps.

-- +goose Up
CREATE TABLE tournaments (
    id         text COLLATE "C" PRIMARY KEY,
    club_id    text COLLATE "C" NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    name       text NOT NULL,
    state      text NOT NULL,
    data       bytea NOT NULL,
    version    integer NOT NULL,
    created_ns bigint NOT NULL
);

CREATE INDEX tournaments_by_club ON tournaments (club_id, created_ns);

-- +goose Down
DROP TABLE tournaments;
