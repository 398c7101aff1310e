-- The tables' chat, kept with the game (store.Chats): one row per line, in
-- the order it was said (seq from 0), with where in the game it was said
-- (log: the game's log length then; round; phase). at is Unix milliseconds,
-- as the chat frames carry it. Readable with the sqlite3 CLI, e.g.
-- SELECT seq, channel, seat, text FROM chat WHERE table_id = '...' ORDER BY seq.

-- +goose Up
CREATE TABLE chat (
    table_id TEXT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL,
    channel  TEXT NOT NULL,
    seat     INTEGER NOT NULL,
    name     TEXT NOT NULL,
    text     TEXT NOT NULL,
    at       INTEGER NOT NULL,
    log      INTEGER NOT NULL,
    round    INTEGER NOT NULL,
    phase    TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
) STRICT, WITHOUT ROWID;

-- +goose Down
DROP TABLE chat;
