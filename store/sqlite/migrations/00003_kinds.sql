-- The kind of each table (store.Kind): 'online' for the online server's
-- rooms, 'in_person' for the games that the host's assistant records. Until
-- now the two were told apart by their status: the assistant keeps its
-- games under statuses of its own (in_person, in_person_ended,
-- in_person_deleted), which the server neither listed nor loaded, and under
-- those alone (its record, under "in_person" in config, is no room's
-- settings). The rows already there are filled the same way. The default
-- only fills the old rows: the store writes the kind of every table it
-- creates, and every load and listing names the kind it serves.
--
-- Adding a column to a STRICT table makes SQLite check every row of it, so
-- on a file with a damaged page of tables' rows this migration fails (and
-- leaves the file as it was): the server does not start until the file is
-- recovered (sqlite3 mafia.db .recover | sqlite3 recovered.db).

-- +goose Up
ALTER TABLE tables ADD COLUMN kind TEXT NOT NULL DEFAULT 'online';

UPDATE tables SET kind = 'in_person'
WHERE status IN ('in_person', 'in_person_ended', 'in_person_deleted');

-- +goose Down
ALTER TABLE tables DROP COLUMN kind;
