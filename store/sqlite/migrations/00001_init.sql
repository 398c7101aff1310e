-- The first schema: tables, seats, the event log, clocks and the heartbeat.
-- Times are UTC text of fixed width (2006-01-02T15:04:05.000000000Z), so they
-- sort as they read; seeds are decimal text, as in the wire format, so a
-- uint64 survives unchanged.

-- +goose Up
CREATE TABLE tables (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    public     INTEGER NOT NULL,
    invite     TEXT NOT NULL,
    status     TEXT NOT NULL,
    config     BLOB,
    host_token TEXT NOT NULL,
    seed       TEXT NOT NULL,
    winner     TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
) STRICT;

CREATE INDEX tables_by_status ON tables (status, created_at);

CREATE TABLE seats (
    table_id   TEXT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    name       TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    bot        INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat)
) STRICT, WITHOUT ROWID;

-- One row per event, in the JSON of package wire: readable with the sqlite3
-- CLI, e.g. SELECT seq, json FROM events WHERE table_id = '...' ORDER BY seq.
CREATE TABLE events (
    table_id TEXT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL,
    kind     TEXT NOT NULL,
    json     TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
) STRICT, WITHOUT ROWID;

CREATE TABLE clocks (
    table_id TEXT PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    step     INTEGER NOT NULL,
    deadline TEXT,
    left_ns  INTEGER NOT NULL,
    paused   INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TABLE heartbeat (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    at TEXT NOT NULL
) STRICT;

-- +goose Down
DROP TABLE heartbeat;
DROP TABLE clocks;
DROP TABLE events;
DROP TABLE seats;
DROP TABLE tables;
