-- The client addresses each account's logins took seats from lately
-- (store.SeenAddrs), for the seat limits of every node and of a node after
-- its restart: a few per account, none kept past its time.

-- +goose Up
CREATE TABLE seen_addrs (
    account_id INTEGER NOT NULL,
    addr       TEXT NOT NULL,
    at_ns      INTEGER NOT NULL,
    PRIMARY KEY (account_id, addr)
) STRICT, WITHOUT ROWID;

CREATE INDEX seen_addrs_by_time ON seen_addrs (at_ns);

-- +goose Down
DROP TABLE seen_addrs;
