-- A server's bot's chat line kept as what it means (store.BotLine, as JSON:
-- {"kind":"checked","seat":7,"result":"mafia","pick":3}), so that the room
-- renders it for each reader in the reader's language; '' for every other
-- line, and for every line before this migration (text holds its words).
--
-- append_chat keeps its signature, for a node of the version before still
-- running beside a migrated database during an upgrade (its lines carry
-- ''), and gets a second form, with the bot line, beside it.

-- +goose Up
-- A constant default: PostgreSQL adds the column without rewriting the
-- table.
ALTER TABLE chat ADD COLUMN bot_line text NOT NULL DEFAULT '';

-- append_chat as in 00001, with the line's bot_line.
-- +goose StatementBegin
CREATE FUNCTION append_chat(t text, cap integer, channel text, seat integer, name text,
    txt text, at bigint, log integer, round integer, phase text, said text)
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
    INSERT INTO chat (table_id, seq, channel, seat, name, text, at, log, round, phase, bot_line)
    VALUES (t, n, channel, seat, name, txt, at, log, round, phase, said);
    RETURN n;
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION append_chat(text, integer, text, integer, text, text, bigint, integer, integer, text, text);
ALTER TABLE chat DROP COLUMN bot_line;
