-- A server's bot's chat line kept as what it means (store.BotLine, as JSON:
-- {"kind":"checked","seat":7,"result":"mafia","pick":3}), so that the room
-- renders it for each reader in the reader's language; '' for every other
-- line, and for every line before this migration (text holds its words).

-- +goose Up
ALTER TABLE chat ADD COLUMN bot_line TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE chat DROP COLUMN bot_line;
