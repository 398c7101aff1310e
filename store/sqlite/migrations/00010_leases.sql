-- Table ownership leases with fencing tokens (store.Leases). SQLite is one
-- node's (one server holds the file), but it keeps the same contract as
-- store/postgres, so that the tests and a single node agree with a cluster:
-- each table's lease names its node, its fencing token and when it runs
-- out, in Unix nanoseconds of the machine's clock (the database's: the one
-- machine that opens the file). lease_tokens holds the last token given:
-- each new owner's is larger than every one before, of any table, so that a
-- released lease's row can go without its token ever coming back.

-- +goose Up
CREATE TABLE leases (
    table_id   TEXT PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    node       TEXT NOT NULL,
    token      INTEGER NOT NULL,
    expires_ns INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE INDEX leases_by_expiry ON leases (expires_ns);

CREATE TABLE lease_tokens (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    last INTEGER NOT NULL
) STRICT;

INSERT INTO lease_tokens (id, last) VALUES (1, 0);

-- +goose Down
DROP TABLE lease_tokens;
DROP TABLE leases;
