-- Tables set aside as damaged (store.Store.SetAside): a table whose record
-- cannot be read or replayed is marked here, once, and then left out of
-- every listing and refused, so that one bad row never again stops the
-- server from starting. No foreign key: the table's own row may be what
-- cannot be read. To put a table back once it is repaired:
-- DELETE FROM damaged WHERE table_id = '...';

-- +goose Up
CREATE TABLE damaged (
    table_id TEXT PRIMARY KEY,
    reason   TEXT NOT NULL,
    at       TEXT NOT NULL
) STRICT, WITHOUT ROWID;

-- +goose Down
DROP TABLE damaged;
