-- The fencing token each event was written under (store.EventFences): the
-- context's token for its table (store.WithFence) at the append or rewrite
-- that wrote it, 0 for one written without a fence, as every event before
-- this migration was. In a log whose writes were all fenced the tokens
-- never decrease, and a takeover shows as one step up: what shows, after
-- the fact, that no log holds an event of two owners at once.

-- +goose Up
ALTER TABLE events ADD COLUMN fence INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE events DROP COLUMN fence;
