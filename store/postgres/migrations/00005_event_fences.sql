-- The fencing token each event was written under (store.EventFences): the
-- context's token for its table (store.WithFence) at the append or rewrite
-- that wrote it, 0 for one written without a fence, as every event before
-- this migration was. In a log whose writes were all fenced the tokens
-- never decrease, and a takeover shows as one step up: what shows, after
-- the fact, that no log holds an event of two owners at once.
--
-- The functions keep their signatures where they have one already, so that
-- a node of the version before, still running beside a migrated database
-- during an upgrade, calls them as it did: append_step (the group commit)
-- is redefined in place, and the rewrite's append_events gets a second
-- form, with the token, beside the first (whose events carry 0).

-- +goose Up
-- A constant default: PostgreSQL adds the column without rewriting the
-- table.
ALTER TABLE events ADD COLUMN fence bigint NOT NULL DEFAULT 0;

-- append_step as in 00004, and each event it writes carries the fence's
-- token (p_token when p_fenced, else 0).
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION append_step(t text, first integer, kinds text[], jsons text[],
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
    INSERT INTO events (table_id, seq, kind, json, fence)
    SELECT t, first + i - 1, k, j::json, CASE WHEN p_fenced THEN p_token ELSE 0 END
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

-- append_events as in 00001, each event carrying p_fence (RewriteEvents:
-- the token it is fenced with, or 0).
-- +goose StatementBegin
CREATE FUNCTION append_events(t text, first integer, kinds text[], jsons text[], p_fence bigint)
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
    INSERT INTO events (table_id, seq, kind, json, fence)
    SELECT t, first + i - 1, k, j::json, p_fence
    FROM unnest(kinds, jsons) WITH ORDINALITY AS e (k, j, i);
    RETURN first + COALESCE(array_length(kinds, 1), 0);
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION append_events(text, integer, text[], text[], bigint);

-- append_step as 00004 defined it.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION append_step(t text, first integer, kinds text[], jsons text[],
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

ALTER TABLE events DROP COLUMN fence;
