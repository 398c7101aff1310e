-- The tables' config becomes data (store.Table.Data): what the table's
-- owner keeps of it besides its seats and its log, as JSON the store never
-- reads. A room keeps its settings there, the host's assistant its game's
-- settings and entries, which are no config. Renaming a column rewrites the
-- schema only, not the rows.

-- +goose Up
ALTER TABLE tables RENAME COLUMN config TO data;

-- +goose Down
ALTER TABLE tables RENAME COLUMN data TO config;
