-- The core schema on PostgreSQL, the shape store/sqlite's migrations
-- 00001-00005 end up with: tables (with their kind and data), seats, the
-- event log, clocks, the heartbeat, the tables set aside as damaged, and the
-- chat. Accounts, clubs and ratings come in 00002 and 00003.
--
-- Times are Unix nanoseconds (bigint, columns named *_ns), as exact as
-- store/sqlite's text and what Go's time keeps (timestamptz keeps the
-- microsecond only); read them with to_timestamp(x_ns / 1e9). A chat line's
-- time is Unix milliseconds, as its frames carry it. Seeds are decimal text, as in the wire format and in SQLite, so that a
-- uint64 survives unchanged (bigint is signed).

-- +goose Up
CREATE TABLE tables (
    id         text PRIMARY KEY,
    -- n is the order the tables were recorded in (SQLite's rowid): oldest
    -- first for TableIDs, and what breaks ties of created_ns.
    n          bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    kind       text NOT NULL,
    name       text NOT NULL,
    public     boolean NOT NULL,
    invite     text NOT NULL,
    status     text NOT NULL,
    -- What the table's owner keeps (store.Table.Data): bytes the store
    -- neither reads nor changes.
    data       bytea,
    host_token text NOT NULL,
    seed       text NOT NULL,
    winner     text NOT NULL,
    created_ns bigint NOT NULL,
    updated_ns bigint NOT NULL
);

CREATE INDEX tables_by_status ON tables (kind, status, n);
CREATE INDEX tables_by_created ON tables (kind, created_ns DESC, n DESC);

-- The seats, with the account that took each (0: a guest or a server's
-- bot); the accounts themselves are 00002's.
CREATE TABLE seats (
    table_id    text NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat        integer NOT NULL,
    name        text NOT NULL,
    token_hash  text NOT NULL,
    bot         boolean NOT NULL,
    account_id  bigint NOT NULL DEFAULT 0,
    bot_account boolean NOT NULL DEFAULT false,
    PRIMARY KEY (table_id, seat)
);

CREATE INDEX seats_by_account ON seats (account_id) WHERE account_id <> 0;

-- One row per event, in the JSON of package wire, byte for byte as the
-- store was given it (the type json keeps the text as it is and checks that
-- it is JSON; jsonb would reorder it): readable with psql, e.g.
-- SELECT seq, json FROM events WHERE table_id = '...' ORDER BY seq.
-- The primary key is what makes two writers of one log conflict: each
-- append checks the log's length in its transaction (append_events), and
-- two appends at the same place cannot both commit.
CREATE TABLE events (
    table_id text NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seq      integer NOT NULL,
    kind     text NOT NULL,
    json     json NOT NULL,
    PRIMARY KEY (table_id, seq)
);

CREATE TABLE clocks (
    table_id    text PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    step        integer NOT NULL,
    deadline_ns bigint,
    left_ns     bigint NOT NULL,
    paused      boolean NOT NULL
);

CREATE TABLE heartbeat (
    id integer PRIMARY KEY CHECK (id = 1),
    at_ns bigint NOT NULL
);

-- Tables set aside as damaged (store.Store.SetAside). No foreign key: the
-- table's own row may be what cannot be read. To put a table back:
-- DELETE FROM damaged WHERE table_id = '...';
CREATE TABLE damaged (
    table_id text PRIMARY KEY,
    reason   text NOT NULL,
    at_ns    bigint NOT NULL
);

-- The tables' chat (store.Chats): one row per line, in the order it was
-- said (seq from 0).
CREATE TABLE chat (
    table_id text NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seq      integer NOT NULL,
    channel  text NOT NULL,
    seat     integer NOT NULL,
    name     text NOT NULL,
    text     text NOT NULL,
    at       bigint NOT NULL,
    log      integer NOT NULL,
    round    integer NOT NULL,
    phase    text NOT NULL,
    PRIMARY KEY (table_id, seq)
);

-- append_events appends events to a log at index first, which must be the
-- log's length read in this transaction: else it raises MA409 (a conflict),
-- or MA404 for a table that does not exist. A race between two appends that
-- both read the same length ends at the primary key (unique_violation),
-- which the store also reports as a conflict. It returns the new length.
-- +goose StatementBegin
CREATE FUNCTION append_events(t text, first integer, kinds text[], jsons text[])
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    n integer;
BEGIN
    SELECT COALESCE(MAX(seq) + 1, 0) INTO n FROM events WHERE table_id = t;
    IF n = 0 AND NOT EXISTS (SELECT 1 FROM tables WHERE id = t) THEN
        RAISE EXCEPTION 'no table %', t USING ERRCODE = 'MA404';
    END IF;
    IF n <> first THEN
        RAISE EXCEPTION 'append to % at %, but the log has % events', t, first, n
            USING ERRCODE = 'MA409';
    END IF;
    INSERT INTO events (table_id, seq, kind, json)
    SELECT t, first + i - 1, k, j::json
    FROM unnest(kinds, jsons) WITH ORDINALITY AS e (k, j, i);
    RETURN first + COALESCE(array_length(kinds, 1), 0);
END
$$;
-- +goose StatementEnd

-- append_step is what a group commit runs for each append in it: the events
-- at index first as append_events appends them, then, if p_clock, the
-- game's clock, and if p_table, the table's status, seed, winner, data and
-- update time. It refuses without raising, so that the other appends of
-- the batch go on: -1 for a table that does not exist, -2 - n when the log
-- has n events and first is not n. Else it returns the new length. A race
-- between two appends at one place still ends at the primary key, which
-- aborts the batch (the store then commits each of its appends alone).
-- +goose StatementBegin
CREATE FUNCTION append_step(t text, first integer, kinds text[], jsons text[],
    p_clock boolean, p_step integer, p_deadline_ns bigint, p_left_ns bigint, p_paused boolean,
    p_table boolean, p_status text, p_seed text, p_winner text, p_data bytea, p_updated_ns bigint)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    n integer;
BEGIN
    SELECT COALESCE(MAX(seq) + 1, 0) INTO n FROM events WHERE table_id = t;
    IF n = 0 AND NOT EXISTS (SELECT 1 FROM tables WHERE id = t) THEN
        RETURN -1;
    END IF;
    IF n <> first THEN
        RETURN -2 - n;
    END IF;
    INSERT INTO events (table_id, seq, kind, json)
    SELECT t, first + i - 1, k, j::json
    FROM unnest(kinds, jsons) WITH ORDINALITY AS e (k, j, i);
    IF p_clock THEN
        INSERT INTO clocks (table_id, step, deadline_ns, left_ns, paused)
        VALUES (t, p_step, p_deadline_ns, p_left_ns, p_paused)
        ON CONFLICT (table_id) DO UPDATE SET
            step = excluded.step, deadline_ns = excluded.deadline_ns,
            left_ns = excluded.left_ns, paused = excluded.paused;
    END IF;
    IF p_table THEN
        UPDATE tables SET status = p_status, seed = p_seed, winner = p_winner,
            data = p_data, updated_ns = p_updated_ns
        WHERE id = t;
    END IF;
    RETURN first + COALESCE(array_length(kinds, 1), 0);
END
$$;
-- +goose StatementEnd

-- append_chat appends a line to a table's chat at the chat's length, which
-- it returns: MA404 for a table that does not exist, MA413 once the chat
-- holds cap lines. It locks the table's row (FOR NO KEY UPDATE, which
-- appends of events do not wait for) so that two lines said at once take
-- two places, one after the other.
-- +goose StatementBegin
CREATE FUNCTION append_chat(t text, cap integer, channel text, seat integer, name text,
    txt text, at bigint, log integer, round integer, phase text)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    n integer;
BEGIN
    PERFORM 1 FROM tables WHERE id = t FOR NO KEY UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no table %', t USING ERRCODE = 'MA404';
    END IF;
    SELECT COALESCE(MAX(c.seq) + 1, 0) INTO n FROM chat c WHERE c.table_id = t;
    IF n >= cap THEN
        RAISE EXCEPTION 'the chat of % is full (% lines)', t, n USING ERRCODE = 'MA413';
    END IF;
    INSERT INTO chat (table_id, seq, channel, seat, name, text, at, log, round, phase)
    VALUES (t, n, channel, seat, name, txt, at, log, round, phase);
    RETURN n;
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION append_step(text, integer, text[], text[], boolean, integer, bigint, bigint, boolean,
    boolean, text, text, text, bytea, bigint);
DROP FUNCTION append_chat(text, integer, text, integer, text, text, bigint, integer, integer, text);
DROP FUNCTION append_events(text, integer, text[], text[]);
DROP TABLE chat;
DROP TABLE damaged;
DROP TABLE heartbeat;
DROP TABLE clocks;
DROP TABLE events;
DROP TABLE seats;
DROP TABLE tables;
