-- An append without a fence, on a store where leases are in use, is
-- refused in the append's own transaction when the table has a lease
-- (store.ErrUnfenced), where it was looked up just before the append was
-- queued: an append racing the table's first lease went through. Called
-- with p_fenced false and p_token -1 (the store's leasing: a token is never
-- negative), append_step takes the table's advisory lock, shared, and
-- refuses with -2147483648 when a lease is there; Acquire takes the same
-- lock alone before it writes a lease. Called as before (p_token 0 when
-- unfenced), it appends as before, so that a node not yet upgraded goes on.

-- +goose Up
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
    -- Unfenced on a store where leases are in use: the table's lock, shared
    -- (a lease's first taking holds it alone: Acquire), then no lease may
    -- be there. The lock makes the look-up and the append one with respect
    -- to a lease taken at the same moment: it waits for that lease to
    -- commit, and then sees it.
    IF NOT p_fenced AND p_token = -1 THEN
        PERFORM pg_advisory_xact_lock_shared(hashtextextended(t, 0));
        IF EXISTS (SELECT 1 FROM leases WHERE table_id = t) THEN
            RETURN -2147483648;
        END IF;
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

-- +goose Down
-- append_step as 00005 defined it.
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
