-- Table ownership leases with fencing tokens (store.Leases), for a cluster
-- of nodes on one database: each table's lease names the node that owns it,
-- its fencing token and when it runs out. Times are the database's clock
-- (now()), never a node's, so expires is a timestamptz the database itself
-- computes.

-- +goose Up
-- Tokens are drawn from one sequence for every table: each new owner's is
-- larger than every token before it, and a released lease's row can go
-- without a later owner ever getting the same token again.
CREATE SEQUENCE lease_tokens AS bigint;

CREATE TABLE leases (
    table_id text PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    node     text NOT NULL,
    token    bigint NOT NULL,
    expires  timestamptz NOT NULL
);

CREATE INDEX leases_by_expiry ON leases (expires);

-- fence_ok reports whether a write fenced with token may write table t: its
-- lease carries that token. It locks the lease's row (FOR SHARE) until the
-- write's transaction ends, so that a node taking the lease over waits for
-- the write to commit (and then reads it when it loads the table), and no
-- write with the old token commits after the takeover.
-- +goose StatementBegin
CREATE FUNCTION fence_ok(t text, p_token bigint)
RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    tok bigint;
BEGIN
    SELECT token INTO tok FROM leases WHERE table_id = t FOR SHARE;
    RETURN FOUND AND tok = p_token;
END
$$;
-- +goose StatementEnd

-- append_step again, with a fence: when p_fenced, the append is made only if
-- fence_ok(t, p_token), and refused with NULL otherwise (without raising, so
-- that the other appends of the batch go on). The rest is as in 00001.
DROP FUNCTION append_step(text, integer, text[], text[], boolean, integer, bigint, bigint, boolean,
    boolean, text, text, text, bytea, bigint);

-- +goose StatementBegin
CREATE FUNCTION append_step(t text, first integer, kinds text[], jsons text[],
    p_clock boolean, p_step integer, p_deadline_ns bigint, p_left_ns bigint, p_paused boolean,
    p_table boolean, p_status text, p_seed text, p_winner text, p_data bytea, p_updated_ns bigint,
    p_fenced boolean, p_token bigint)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    n integer;
BEGIN
    IF p_fenced AND NOT fence_ok(t, p_token) THEN
        RETURN NULL;
    END IF;
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

-- +goose Down
DROP FUNCTION append_step(text, integer, text[], text[], boolean, integer, bigint, bigint, boolean,
    boolean, text, text, text, bytea, bigint, boolean, bigint);

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

DROP FUNCTION fence_ok(text, bigint);
DROP TABLE leases;
DROP SEQUENCE lease_tokens;
